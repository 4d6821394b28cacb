package server

import (
	"context"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	apierrors "platform.io/client/api/errors"

	"platform.io/platform/pkg/apiserver/endpoints"
)

// shutdownRetryAfter is the Retry-After, in seconds, of the requests
// refused while the server drains.
const shutdownRetryAfter = 5

// lifecycle tracks the requests being served and the phases of a graceful
// shutdown, which the handler chain consults.
type lifecycle struct {
	// shuttingDown is set when the shutdown begins: /readyz fails.
	shuttingDown atomic.Bool
	// notAccepting is set after --shutdown-delay-duration: with
	// sendRetryAfter new requests get 429.
	notAccepting   atomic.Bool
	sendRetryAfter bool
	// requests counts the non-long-running requests in flight.
	requests requestGroup
	// watches holds the cancel functions of the long-running requests.
	watches watchSet
	// fresh holds the connections that have not begun a request.
	fresh freshConns
}

// withLifecycle counts requests in flight, registers long-running ones so
// that the shutdown can end them, and, once the server stops accepting
// with sendRetryAfter, answers new requests (but health checks) 429 with
// Retry-After and Connection: close.
func withLifecycle(h http.Handler, l *lifecycle) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if l.sendRetryAfter && l.notAccepting.Load() && !healthPath(r.URL.Path) {
			w.Header().Set("Connection", "close")
			endpoints.WriteError(w, r, apierrors.NewTooManyRequests("The apiserver is shutting down, please try again later.", shutdownRetryAfter))
			return
		}
		if !longRunning(r) {
			l.requests.add()
			defer l.requests.done()
			h.ServeHTTP(w, r)
			return
		}
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		if !l.watches.add(&cancel) {
			// The watches are being closed: end this one at once too.
			cancel()
		}
		defer l.watches.remove(&cancel)
		h.ServeHTTP(w, r.WithContext(ctx))
	})
}

func healthPath(p string) bool {
	switch p {
	case "/healthz", "/livez", "/readyz":
		return true
	}
	return false
}

// requestGroup counts requests and lets a caller wait for none to be left.
type requestGroup struct {
	// mu guards n and idle.
	mu sync.Mutex
	n  int
	// idle is closed while n is 0; nil stands for a closed channel.
	idle chan struct{}
}

func (g *requestGroup) add() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.n == 0 {
		g.idle = make(chan struct{})
	}
	g.n++
}

func (g *requestGroup) done() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.n--
	if g.n == 0 {
		close(g.idle)
	}
}

// wait returns once no request is in flight, or false when ctx ends first.
func (g *requestGroup) wait(ctx context.Context) bool {
	g.mu.Lock()
	idle := g.idle
	g.mu.Unlock()
	if idle == nil {
		return true
	}
	select {
	case <-idle:
		return true
	case <-ctx.Done():
		return false
	}
}

// watchSet holds the cancel functions of open long-running requests.
type watchSet struct {
	// mu guards open and closing.
	mu      sync.Mutex
	open    map[*context.CancelFunc]struct{}
	closing bool
}

// add registers a request; it returns false when the set is closing.
func (s *watchSet) add(c *context.CancelFunc) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return false
	}
	if s.open == nil {
		s.open = map[*context.CancelFunc]struct{}{}
	}
	s.open[c] = struct{}{}
	return true
}

func (s *watchSet) remove(c *context.CancelFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.open, c)
}

// closeAll ends every open long-running request, spreading the ends
// evenly over grace (the last one at grace) so that their clients do not
// all reconnect at the same moment; with grace 0 all end at once. Requests
// that arrive meanwhile end at once. It returns how many it ended.
func (s *watchSet) closeAll(ctx context.Context, grace time.Duration) int {
	s.mu.Lock()
	s.closing = true
	cancels := make([]context.CancelFunc, 0, len(s.open))
	for c := range s.open {
		cancels = append(cancels, *c)
	}
	s.mu.Unlock()
	start := time.Now()
	for i, cancel := range cancels {
		at := start.Add(grace * time.Duration(i+1) / time.Duration(len(cancels)))
		if d := time.Until(at); d > 0 {
			select {
			case <-time.After(d):
			case <-ctx.Done():
			}
		}
		cancel()
	}
	return len(cancels)
}

// freshConns tracks the connections in http.StateNew: accepted, perhaps
// still in their TLS handshake, with no byte of a request read yet.
// http.Server.Shutdown waits up to five seconds for such a connection to
// send its first request (golang.org/issue/22682), so one client's unused
// pooled connection held every exit that long; the shutdown closes them
// instead once the requests have ended.
type freshConns struct {
	// mu guards conns.
	mu    sync.Mutex
	conns map[net.Conn]struct{}
}

// track is an http.Server's ConnState hook.
func (f *freshConns) track(c net.Conn, st http.ConnState) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if st != http.StateNew {
		delete(f.conns, c)
		return
	}
	if f.conns == nil {
		f.conns = map[net.Conn]struct{}{}
	}
	f.conns[c] = struct{}{}
}

// closeAll closes the connections that have not begun a request and
// returns how many it closed.
func (f *freshConns) closeAll() int {
	f.mu.Lock()
	conns := f.conns
	f.conns = nil
	f.mu.Unlock()
	for c := range conns {
		_ = c.Close()
	}
	return len(conns)
}
