package rest

import (
	"fmt"
	"net/http"
	"net/url"
)

// Client sends requests to one API server. It is safe for concurrent use;
// all its requests share one rate limiter and one connection pool.
type Client struct {
	cfg     Config
	base    *url.URL
	http    *http.Client
	tokens  *tokenSource
	limiter *limiter
	// fence, when set, is sent with every write (WithFence).
	fence *Fence
}

// NewClient checks cfg, reads the certificates and token it names, and
// returns a Client for it. cfg is copied; later changes to it have no
// effect.
func NewClient(cfg *Config) (*Client, error) {
	if cfg == nil {
		return nil, fmt.Errorf("rest: nil config")
	}
	c := cfg.withDefaults()
	if err := c.validate(); err != nil {
		return nil, err
	}
	base, err := c.baseURL()
	if err != nil {
		return nil, err
	}
	hc, err := newHTTPClient(c, base.Scheme == "https")
	if err != nil {
		return nil, err
	}
	tokens, err := newTokenSource(c.BearerToken, c.BearerTokenFile)
	if err != nil {
		return nil, err
	}
	return &Client{
		cfg:     c,
		base:    base,
		http:    hc,
		tokens:  tokens,
		limiter: newLimiter(c.QPS, c.Burst, c.Clock),
	}, nil
}

// WithOwnRateLimit returns a client that shares c's settings and
// connections but takes its tokens from a rate limiter of its own, with
// c's QPS and burst: for traffic that must not slow c's down, such as a
// daemon's events (upstream gives them a client of their own too).
func (c *Client) WithOwnRateLimit() *Client {
	n := *c
	n.limiter = newLimiter(c.cfg.QPS, c.cfg.Burst, c.cfg.Clock)
	return &n
}

// Verb starts a request with the HTTP method verb.
func (c *Client) Verb(verb string) *Request {
	return &Request{c: c, verb: verb, params: url.Values{}, header: http.Header{}}
}

// Get starts a GET request.
func (c *Client) Get() *Request { return c.Verb(http.MethodGet) }

// Post starts a POST request.
func (c *Client) Post() *Request { return c.Verb(http.MethodPost) }

// Put starts a PUT request.
func (c *Client) Put() *Request { return c.Verb(http.MethodPut) }

// Delete starts a DELETE request.
func (c *Client) Delete() *Request { return c.Verb(http.MethodDelete) }

// Patch starts a PATCH request whose body is a patch of type pt.
func (c *Client) Patch(pt PatchType) *Request {
	r := c.Verb(http.MethodPatch)
	r.patchType = pt
	return r
}

// CloseIdleConnections closes the connections the Client keeps open for
// reuse; requests still running are not affected.
func (c *Client) CloseIdleConnections() { c.http.CloseIdleConnections() }
