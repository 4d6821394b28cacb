package rest

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"
)

// newHTTPClient returns the http.Client of a Client: HTTP/2 over TLS, with
// pings that notice a dead connection under a long watch.
func newHTTPClient(cfg Config, https bool) (*http.Client, error) {
	dialer := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	tr := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           dialer.DialContext,
		TLSHandshakeTimeout:   10 * time.Second,
		MaxIdleConnsPerHost:   25,
		IdleConnTimeout:       90 * time.Second,
		ExpectContinueTimeout: time.Second,
		ForceAttemptHTTP2:     true,
		HTTP2: &http.HTTP2Config{
			SendPingTimeout: 30 * time.Second,
			PingTimeout:     15 * time.Second,
		},
	}
	if https {
		tc, err := tlsConfig(cfg.TLS)
		if err != nil {
			return nil, err
		}
		tr.TLSClientConfig = tc
	}
	return &http.Client{Transport: tr}, nil
}

// tlsConfig builds the crypto/tls settings of t.
func tlsConfig(t TLSConfig) (*tls.Config, error) {
	tc := &tls.Config{
		MinVersion:         tls.VersionTLS12,
		ServerName:         t.ServerName,
		InsecureSkipVerify: t.Insecure,
	}
	if t.hasCA() {
		pem, err := dataOrFile(t.CAData, t.CAFile)
		if err != nil {
			return nil, fmt.Errorf("rest: reading the CA: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("rest: the CA %s holds no PEM certificate", describe(t.CAFile))
		}
		tc.RootCAs = pool
	}
	if t.hasCert() {
		certPEM, err := dataOrFile(t.CertData, t.CertFile)
		if err != nil {
			return nil, fmt.Errorf("rest: reading the client certificate: %w", err)
		}
		keyPEM, err := dataOrFile(t.KeyData, t.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("rest: reading the client key: %w", err)
		}
		cert, err := tls.X509KeyPair(certPEM, keyPEM)
		if err != nil {
			return nil, fmt.Errorf("rest: loading the client certificate: %w", err)
		}
		tc.Certificates = []tls.Certificate{cert}
	}
	return tc, nil
}

// dataOrFile returns data when set, else the contents of file.
func dataOrFile(data []byte, file string) ([]byte, error) {
	if len(data) > 0 {
		return data, nil
	}
	return os.ReadFile(file)
}

// describe names where a PEM came from in messages.
func describe(file string) string {
	if file == "" {
		return "data"
	}
	return fmt.Sprintf("file %q", file)
}

// tokenSource yields the bearer token: a fixed one, or a file's contents,
// read again whenever the file's size or modification time changes.
type tokenSource struct {
	fixed string
	path  string

	mu      sync.Mutex
	token   string
	size    int64
	modTime time.Time
}

// newTokenSource reads the token file once, so a missing file fails the
// Client's creation unless a fixed token stands in for it.
func newTokenSource(token, path string) (*tokenSource, error) {
	ts := &tokenSource{fixed: token, path: path}
	if path == "" {
		return ts, nil
	}
	if err := ts.refresh(); err != nil && token == "" {
		return nil, fmt.Errorf("rest: bearer token file: %w", err)
	}
	return ts, nil
}

// Token returns the current token; a file that cannot be read now leaves
// the last token read from it in use.
func (ts *tokenSource) Token() string {
	if ts.path == "" {
		return ts.fixed
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	_ = ts.refreshLocked()
	if ts.token == "" {
		return ts.fixed
	}
	return ts.token
}

func (ts *tokenSource) refresh() error {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.refreshLocked()
}

// refreshLocked reads the file when it differs from the last read.
func (ts *tokenSource) refreshLocked() error {
	fi, err := os.Stat(ts.path)
	if err != nil {
		return err
	}
	if ts.token != "" && fi.Size() == ts.size && fi.ModTime().Equal(ts.modTime) {
		return nil
	}
	data, err := os.ReadFile(ts.path)
	if err != nil {
		return err
	}
	tok := strings.TrimSpace(string(data))
	if tok == "" {
		return errors.New("the token file is empty")
	}
	ts.token, ts.size, ts.modTime = tok, fi.Size(), fi.ModTime()
	return nil
}
