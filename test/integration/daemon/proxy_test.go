package daemon

import (
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// apiProxy stands between daemons and the API server and forwards every
// request, so a test can make the API server misbehave as a sick or
// restarting one does: hang the next renewal of a lock, or go away (cut
// every connection and refuse new ones) for a while.
type apiProxy struct {
	t    *testing.T
	addr string // host:port, kept across outages
	rp   *httputil.ReverseProxy

	mu sync.Mutex
	// srv is nil during an outage. mu guards srv and the fields below.
	srv *http.Server
	// hangs is how many lock renewals are still to hang.
	hangs int
	// outage, when positive, is how long the proxy goes away at the next
	// renewal of the lock; negative for good.
	outage time.Duration
	// hung receives each hung renewal once its client gave up on it.
	hung chan span
	// down and up are when the last outage began and ended.
	down, up time.Time
	lock     string
}

// span is a stretch of time.
type span struct{ from, to time.Time }

// newAPIProxy starts a proxy to target for the lock named lock.
func newAPIProxy(t *testing.T, target, lock string) *apiProxy {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &apiProxy{t: t, addr: l.Addr().String(), rp: httputil.NewSingleHostReverseProxy(u),
		hung: make(chan span, 16), lock: lock}
	// Watches stream; their events must not sit in a buffer.
	p.rp.FlushInterval = -1
	p.rp.ErrorLog = nil
	p.serve(l)
	t.Cleanup(func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.srv != nil {
			p.srv.Close()
			p.srv = nil
		}
		p.outage = 0
	})
	return p
}

// URL is the proxy's base URL.
func (p *apiProxy) URL() string { return "http://" + p.addr }

func (p *apiProxy) serve(l net.Listener) {
	srv := &http.Server{Handler: http.HandlerFunc(p.handle), ReadHeaderTimeout: 10 * time.Second}
	p.mu.Lock()
	p.srv = srv
	p.mu.Unlock()
	go func() { _ = srv.Serve(l) }()
}

// renewal reports whether r writes the lock's Lease.
func (p *apiProxy) renewal(r *http.Request) bool {
	return r.Method == http.MethodPut && strings.HasSuffix(r.URL.Path, "/leases/"+p.lock)
}

func (p *apiProxy) handle(w http.ResponseWriter, r *http.Request) {
	if p.renewal(r) {
		p.mu.Lock()
		hang := p.hangs > 0
		if hang {
			p.hangs--
		}
		outage := p.outage
		p.outage = 0
		p.mu.Unlock()
		switch {
		case hang:
			// Never answer: read the request, so the server notices when
			// the client gives up, and wait for that.
			from := time.Now()
			_, _ = io.Copy(io.Discard, r.Body)
			<-r.Context().Done()
			p.hung <- span{from, time.Now()}
			return
		case outage != 0:
			p.goAway(outage)
			panic(http.ErrAbortHandler) // this renewal gets no answer either
		}
	}
	p.rp.ServeHTTP(w, r)
}

// hangNextRenewals makes the next n renewals of the lock hang.
func (p *apiProxy) hangNextRenewals(n int) {
	p.mu.Lock()
	p.hangs = n
	p.mu.Unlock()
}

// outageAtNextRenewal makes the proxy go away for d when the next renewal
// of the lock arrives (that renewal is cut); a negative d means for good.
func (p *apiProxy) outageAtNextRenewal(d time.Duration) {
	p.mu.Lock()
	p.outage = d
	p.mu.Unlock()
}

// goAway closes the listener and every connection, and listens again on
// the same address after d unless d is negative.
func (p *apiProxy) goAway(d time.Duration) {
	p.mu.Lock()
	srv := p.srv
	p.srv = nil
	p.down = time.Now()
	p.mu.Unlock()
	if srv == nil {
		return
	}
	// Close cuts the connections of handlers still running too, this
	// one's included.
	go srv.Close()
	if d < 0 {
		return
	}
	time.AfterFunc(d, func() {
		var l net.Listener
		var err error
		for range 50 {
			if l, err = net.Listen("tcp", p.addr); !errors.Is(err, syscall.EADDRINUSE) {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if err != nil {
			p.t.Errorf("proxy: listen again on %s: %v", p.addr, err)
			return
		}
		p.mu.Lock()
		p.up = time.Now()
		p.mu.Unlock()
		p.serve(l)
	})
}

// outageSpan returns when the last outage began and ended.
func (p *apiProxy) outageSpan() (down, up time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.down, p.up
}
