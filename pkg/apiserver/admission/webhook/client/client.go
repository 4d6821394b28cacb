package client

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"

	arv1 "platform.io/client/api/admissionregistration/v1"
)

// MaxResponseBytes bounds a webhook's answer.
const MaxResponseBytes = 10 << 20

// Resolver finds the address ("host:port") serving a Service port.
type Resolver interface {
	Resolve(ctx context.Context, namespace, name string, port int32) (string, error)
}

// Errors of a call, wrapped with detail.
var (
	// ErrStatus: the webhook answered with an HTTP status other than 200.
	ErrStatus = errors.New("webhook answered with an error status")
	// ErrConfig: the client config cannot be used (bad URL, bad caBundle).
	ErrConfig = errors.New("invalid webhook client config")
)

// Client calls webhooks. It is safe for concurrent use.
type Client struct {
	resolver Resolver
	// mu guards clients.
	mu      sync.Mutex
	clients map[string]*http.Client
}

// New returns a client that resolves Services with r.
func New(r Resolver) *Client {
	return &Client{resolver: r, clients: map[string]*http.Client{}}
}

// Post sends body (JSON) to the webhook of cc and returns the answer's body
// and HTTP status code (0 when there was no answer). ctx bounds the call.
func (c *Client) Post(ctx context.Context, cc *arv1.WebhookClientConfig, body []byte) ([]byte, int, error) {
	target, serverName, err := c.target(ctx, cc)
	if err != nil {
		return nil, 0, err
	}
	hc, err := c.httpClient(cc.CABundle, serverName)
	if err != nil {
		return nil, 0, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return nil, 0, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(io.LimitReader(resp.Body, MaxResponseBytes+1))
	if err != nil {
		return nil, resp.StatusCode, fmt.Errorf("read webhook response: %w", err)
	}
	if len(out) > MaxResponseBytes {
		return nil, resp.StatusCode, fmt.Errorf("webhook response is larger than %d bytes", MaxResponseBytes)
	}
	if resp.StatusCode != http.StatusOK {
		return out, resp.StatusCode, fmt.Errorf("%w: %d: %s", ErrStatus, resp.StatusCode, truncate(out))
	}
	return out, resp.StatusCode, nil
}

// target returns the URL to post to and the name the certificate must carry
// ("" to take the URL's host).
func (c *Client) target(ctx context.Context, cc *arv1.WebhookClientConfig) (string, string, error) {
	if cc.URL != nil {
		u, err := url.Parse(*cc.URL)
		if err != nil || u.Scheme != "https" {
			return "", "", fmt.Errorf("%w: url %q", ErrConfig, *cc.URL)
		}
		return u.String(), "", nil
	}
	s := cc.Service
	if s == nil {
		return "", "", fmt.Errorf("%w: neither url nor service", ErrConfig)
	}
	port := int32(443)
	if s.Port != nil {
		port = *s.Port
	}
	addr, err := c.resolver.Resolve(ctx, s.Namespace, s.Name, port)
	if err != nil {
		return "", "", err
	}
	path := "/"
	if s.Path != nil {
		path = *s.Path
	}
	u := url.URL{Scheme: "https", Host: addr, Path: path}
	return u.String(), s.Name + "." + s.Namespace + ".svc", nil
}

func (c *Client) httpClient(caBundle []byte, serverName string) (*http.Client, error) {
	sum := sha256.Sum256(caBundle)
	key := string(sum[:]) + "|" + serverName
	c.mu.Lock()
	defer c.mu.Unlock()
	if hc, ok := c.clients[key]; ok {
		return hc, nil
	}
	tc := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: serverName}
	if len(caBundle) > 0 {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(caBundle) {
			return nil, fmt.Errorf("%w: caBundle holds no PEM certificate", ErrConfig)
		}
		tc.RootCAs = pool
	}
	hc := &http.Client{Transport: &http.Transport{
		TLSClientConfig:     tc,
		DialContext:         (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		TLSHandshakeTimeout: 10 * time.Second,
		MaxIdleConnsPerHost: 100,
		IdleConnTimeout:     90 * time.Second,
		ForceAttemptHTTP2:   true,
	}}
	c.clients[key] = hc
	return hc, nil
}

func truncate(b []byte) string {
	const max = 512
	if len(b) > max {
		return string(b[:max]) + "..."
	}
	return string(b)
}

// Addr joins a host and port.
func Addr(host string, port int32) string { return net.JoinHostPort(host, strconv.Itoa(int(port))) }
