package rest

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"platform.io/client/codec/protobuf"
)

// Media types a Config can name.
const (
	ContentTypeJSON     = "application/json"
	ContentTypeProtobuf = protobuf.MediaType
)

// Defaults, as upstream's client has them.
const (
	DefaultQPS        float32 = 5
	DefaultBurst              = 10
	DefaultMaxRetries         = 10
	// DefaultInitialBackoff and DefaultMaxBackoff bound the waits between
	// retries after connection errors.
	DefaultInitialBackoff = 200 * time.Millisecond
	DefaultMaxBackoff     = 5 * time.Second
)

// Config is how to reach and authenticate to an API server. The zero value
// of every field but Host means its default.
type Config struct {
	// Host is the server's URL ("https://10.0.0.1:6443") or host:port; a
	// host:port without a scheme is https when TLS material or Insecure is
	// set, http otherwise. A path in it is kept as a prefix of every request.
	Host string
	// APIPath is a further path prefix under Host where the server's root
	// (/api, /apis, /version, ...) is mounted, for servers behind a proxy.
	// Empty for a server reached directly.
	APIPath string
	// TLS holds the certificates; it is ignored for an http:// Host.
	TLS TLSConfig

	// BearerToken is sent as "Authorization: Bearer ...".
	BearerToken string
	// BearerTokenFile, when set, is read for the token instead, and read
	// again whenever it changes; BearerToken is used only while the file
	// cannot be read.
	BearerTokenFile string

	// UserAgent defaults to "<binary>/<version> (<os>/<arch>)".
	UserAgent string
	// QPS and Burst size the token bucket every request waits on: 0 means
	// DefaultQPS and DefaultBurst, a negative QPS no limit at all.
	QPS   float32
	Burst int
	// Timeout bounds each attempt of a request, reading the whole response
	// included; 0 means none. Watches are not bounded by it.
	Timeout time.Duration

	// ContentType is how bodies are sent: ContentTypeProtobuf (the default)
	// for objects that have a protobuf form, or ContentTypeJSON for all.
	ContentType string
	// AcceptContentTypes is the Accept header; it defaults to protobuf then
	// JSON when ContentType is protobuf, and to JSON alone otherwise.
	AcceptContentTypes string

	// MaxRetries caps the retries of one request: 0 means
	// DefaultMaxRetries, a negative number none.
	MaxRetries int
	// Backoff spaces the retries after connection errors.
	Backoff Backoff

	// Clock defaults to the wall clock.
	Clock Clock
	// Metrics, when set, is told how long each request waited for the rate
	// limiter.
	Metrics Metrics
}

// TLSConfig is the TLS side of a Config. Each certificate or key is given
// either inline (PEM data) or as a file; data wins when both are set.
type TLSConfig struct {
	CAFile, CertFile, KeyFile string
	CAData, CertData, KeyData []byte
	// Insecure skips verifying the server's certificate; it cannot be
	// combined with a CA.
	Insecure bool
	// ServerName is the name the server's certificate must carry, when it
	// is not the Host's.
	ServerName string
}

// Backoff is an exponential backoff: Initial, doubled after every retry up
// to Max, each wait shortened by up to a fifth at random so clients that
// failed together do not retry together.
type Backoff struct {
	Initial time.Duration
	Max     time.Duration
}

// hasCA reports whether a CA is configured.
func (t TLSConfig) hasCA() bool { return t.CAFile != "" || len(t.CAData) > 0 }

// hasCert reports whether a client certificate is configured.
func (t TLSConfig) hasCert() bool { return t.CertFile != "" || len(t.CertData) > 0 }

// String renders the Config for logs with every secret redacted.
func (c Config) String() string {
	redact := func(set bool) string {
		if set {
			return "<redacted>"
		}
		return ""
	}
	return fmt.Sprintf("rest.Config{Host: %q, APIPath: %q, BearerToken: %q, BearerTokenFile: %q, "+
		"CAFile: %q, CertFile: %q, KeyFile: %q, KeyData: %q, Insecure: %t, ServerName: %q, "+
		"QPS: %g, Burst: %d, ContentType: %q}",
		c.Host, c.APIPath, redact(c.BearerToken != ""), c.BearerTokenFile,
		c.TLS.CAFile, c.TLS.CertFile, c.TLS.KeyFile, redact(len(c.TLS.KeyData) > 0), c.TLS.Insecure,
		c.TLS.ServerName, c.QPS, c.Burst, c.ContentType)
}

// withDefaults returns a copy of c with every unset field at its default.
func (c Config) withDefaults() Config {
	if c.UserAgent == "" {
		c.UserAgent = DefaultUserAgent()
	}
	if c.QPS == 0 {
		c.QPS = DefaultQPS
	}
	if c.Burst <= 0 {
		c.Burst = DefaultBurst
	}
	if c.ContentType == "" {
		c.ContentType = ContentTypeProtobuf
	}
	if c.AcceptContentTypes == "" {
		c.AcceptContentTypes = ContentTypeJSON
		if c.ContentType == ContentTypeProtobuf {
			c.AcceptContentTypes = ContentTypeProtobuf + ", " + ContentTypeJSON
		}
	}
	if c.MaxRetries == 0 {
		c.MaxRetries = DefaultMaxRetries
	}
	if c.Backoff.Initial <= 0 {
		c.Backoff.Initial = DefaultInitialBackoff
	}
	if c.Backoff.Max <= 0 {
		c.Backoff.Max = DefaultMaxBackoff
	}
	if c.Clock == nil {
		c.Clock = realClock{}
	}
	return c
}

// validate reports settings that contradict each other.
func (c Config) validate() error {
	var errs []error
	if c.Host == "" {
		errs = append(errs, errors.New("no host"))
	}
	if c.TLS.Insecure && c.TLS.hasCA() {
		errs = append(errs, errors.New("a CA cannot be combined with Insecure"))
	}
	if hasKey := c.TLS.KeyFile != "" || len(c.TLS.KeyData) > 0; c.TLS.hasCert() != hasKey {
		errs = append(errs, errors.New("a client certificate needs its key, and a key its certificate"))
	}
	switch c.ContentType {
	case ContentTypeJSON, ContentTypeProtobuf, protobuf.UpstreamMediaType:
	default:
		errs = append(errs, fmt.Errorf("content type %q is neither %q nor %q", c.ContentType, ContentTypeProtobuf, ContentTypeJSON))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("rest: invalid config: %w", err)
	}
	return nil
}

// baseURL returns the URL every request path is appended to: Host with a
// scheme, its path and APIPath joined, without a trailing slash.
func (c Config) baseURL() (*url.URL, error) {
	host := c.Host
	if !strings.Contains(host, "://") {
		scheme := "http://"
		if c.TLS.hasCA() || c.TLS.hasCert() || c.TLS.Insecure {
			scheme = "https://"
		}
		host = scheme + host
	}
	u, err := url.Parse(host)
	if err != nil {
		return nil, fmt.Errorf("rest: host %q: %w", c.Host, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("rest: host %q: scheme %q is neither http nor https", c.Host, u.Scheme)
	}
	if u.Host == "" {
		return nil, fmt.Errorf("rest: host %q names no host", c.Host)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("rest: host %q must not carry a query or fragment", c.Host)
	}
	u.Path = strings.TrimRight(u.Path, "/") + "/" + strings.Trim(c.APIPath, "/")
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	return u, nil
}

// DefaultUserAgent is "<binary>/<version> (<os>/<arch>)": the running
// program's name and its main module's version, "unknown" when the build
// recorded none.
func DefaultUserAgent() string {
	binary := "unknown"
	if len(os.Args) > 0 && os.Args[0] != "" {
		binary = strings.TrimSuffix(filepath.Base(os.Args[0]), ".exe")
	}
	version := "unknown"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		version = bi.Main.Version
	}
	return fmt.Sprintf("%s/%s (%s/%s)", binary, version, runtime.GOOS, runtime.GOARCH)
}
