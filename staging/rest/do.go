package rest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"syscall"
	"time"
)

// Do sends the request, retrying as the package documentation says, and
// returns the response read whole.
func (r *Request) Do(ctx context.Context) Result {
	resp, cancel, err := r.send(ctx, false)
	if err != nil {
		return Result{err: err}
	}
	defer cancel()
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return Result{statusCode: resp.StatusCode, err: fmt.Errorf("rest: %s: reading the response: %w", r.verb, err)}
	}
	res := newResult(resp, data)
	r.countNotLeader(res.err)
	return res
}

// prepared is what every attempt of a request sends.
type prepared struct {
	url         *url.URL
	body        []byte
	contentType string
	// fence is the LeaderLockHeader value every attempt carries, "" for none.
	fence string
}

// prepare builds the URL and encodes the body once for all attempts.
func (r *Request) prepare() (prepared, error) {
	u, err := r.URL()
	if err != nil {
		return prepared{}, err
	}
	body, ct, err := r.encodeBody()
	if err != nil {
		return prepared{}, err
	}
	r.sentFence = r.fenceValue()
	return prepared{url: u, body: body, contentType: ct, fence: r.sentFence}, nil
}

// send runs the attempts of the request until one gets a response that is
// not to be retried, and returns it with its body unread and the function
// that releases the attempt's timeout, which the caller must call once done
// with the body.
func (r *Request) send(ctx context.Context, watch bool) (*http.Response, context.CancelFunc, error) {
	p, err := r.prepare()
	if err != nil {
		return nil, nil, err
	}
	cfg := r.c.cfg
	backoff := cfg.Backoff.Initial
	var last error
	for retries := 0; ; retries++ {
		if err := r.waitForToken(ctx, p.url); err != nil {
			return nil, nil, r.giveUp(p.url, err, last)
		}
		actx, cancel := ctx, context.CancelFunc(func() {})
		if cfg.Timeout > 0 && !watch {
			actx, cancel = context.WithTimeout(ctx, cfg.Timeout)
		}
		req, err := r.newHTTPRequest(actx, p)
		if err != nil {
			cancel()
			return nil, nil, err
		}
		resp, err := r.c.http.Do(req)
		var delay time.Duration
		switch {
		case err != nil:
			cancel()
			if ctx.Err() != nil {
				return nil, nil, r.giveUp(p.url, ctx.Err(), err)
			}
			if retries >= cfg.maxRetries() || !idempotent(r.verb) || !connectionError(err) {
				return nil, nil, fmt.Errorf("rest: %s %s: %w", r.verb, p.url.Redacted(), err)
			}
			delay, backoff = jitter(backoff), min(2*backoff, cfg.Backoff.Max)
			last = err
		default:
			d, again := retryAfter(resp, cfg.Clock.Now())
			if !again || retries >= cfg.maxRetries() {
				return resp, cancel, nil
			}
			data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
			resp.Body.Close()
			cancel()
			delay, last = d, newResult(resp, data).err
		}
		if err := sleep(ctx, cfg.Clock, delay); err != nil {
			return nil, nil, r.giveUp(p.url, err, last)
		}
	}
}

// waitForToken takes a token from the Client's bucket and reports the wait.
func (r *Request) waitForToken(ctx context.Context, u *url.URL) error {
	wait, err := r.c.limiter.wait(ctx)
	if m := r.c.cfg.Metrics; m != nil {
		m.ObserveRateLimiterWait(r.verb, u.Host, wait)
	}
	return err
}

// giveUp is the error of a request whose context ended: it wraps both the
// context's error and the last attempt's, when there was one.
func (r *Request) giveUp(u *url.URL, err, last error) error {
	if last == nil {
		return fmt.Errorf("rest: %s %s: %w", r.verb, u.Redacted(), err)
	}
	return fmt.Errorf("rest: %s %s: %w (last attempt: %w)", r.verb, u.Redacted(), err, last)
}

// newHTTPRequest builds one attempt's request.
func (r *Request) newHTTPRequest(ctx context.Context, p prepared) (*http.Request, error) {
	var body io.Reader
	if p.body != nil {
		body = bytes.NewReader(p.body)
	}
	req, err := http.NewRequestWithContext(ctx, r.verb, p.url.String(), body)
	if err != nil {
		return nil, fmt.Errorf("rest: %w", err)
	}
	cfg := r.c.cfg
	req.Header.Set("User-Agent", cfg.UserAgent)
	req.Header.Set("Accept", cfg.AcceptContentTypes)
	if p.body != nil {
		req.Header.Set("Content-Type", p.contentType)
	}
	if tok := r.c.tokens.Token(); tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	for k, v := range r.header {
		req.Header[k] = v
	}
	if p.fence != "" {
		req.Header.Set(LeaderLockHeader, p.fence)
	}
	return req, nil
}

// maxRetries is the number of retries a request may make.
func (c Config) maxRetries() int { return max(c.MaxRetries, 0) }

// idempotent reports the verbs that may be sent again after a connection
// error, when the server may or may not have acted on the first.
func idempotent(verb string) bool {
	switch verb {
	case http.MethodGet, http.MethodHead, http.MethodPut, http.MethodDelete:
		return true
	}
	return false
}

// connectionError reports a failure to reach the server or to get any
// response from it.
func connectionError(err error) bool {
	return errors.Is(err, syscall.ECONNREFUSED) ||
		errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE) ||
		errors.Is(err, io.EOF) ||
		errors.Is(err, io.ErrUnexpectedEOF)
}

// jitter shortens d by up to a fifth at random.
func jitter(d time.Duration) time.Duration {
	return d - time.Duration(rand.Int64N(int64(d)/5+1))
}

// retryAfter reports whether resp asks to be retried (a 429 or 503 with a
// Retry-After header) and after how long: the header is a number of seconds
// or an HTTP date.
func retryAfter(resp *http.Response, now time.Time) (time.Duration, bool) {
	if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusServiceUnavailable {
		return 0, false
	}
	h := resp.Header.Get("Retry-After")
	if h == "" {
		return 0, false
	}
	if secs, err := strconv.Atoi(h); err == nil {
		return time.Duration(max(secs, 0)) * time.Second, true
	}
	if t, err := http.ParseTime(h); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}
