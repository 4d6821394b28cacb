package server

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"

	"go.uber.org/zap"
)

// removeSelfTimeout bounds removing this server from the platform
// Endpoints when it stops.
const removeSelfTimeout = 5 * time.Second

// firstRequestGrace is how long after the listeners close a connection
// that has not begun a request is kept: a request a client sent on it
// before then has been read by the end of it (the connection is then
// active, and waited for), so a connection still fresh carries nothing.
const firstRequestGrace = 300 * time.Millisecond

// closeTimeout is how long the HTTP servers get, once every request has
// been told to end, before their connections are closed.
const closeTimeout = 5 * time.Second

// stop shuts the server down gracefully, as upstream does: /readyz fails
// and this server leaves the platform Endpoints at once; requests are
// served normally for --shutdown-delay-duration; then the listeners close
// (with --shutdown-send-retry-after they stay open and new requests get
// 429 until the requests in flight are done); the requests in flight get
// up to --request-timeout to finish; then the watches are ended cleanly,
// spread over --shutdown-watch-termination-grace-period, so their clients
// reconnect elsewhere and resume from their last resourceVersion; then the
// connections that never began a request are closed, and stop returns
// once the other connections have closed (closeTimeout at most).
func (s *Server) stop(servers []*http.Server, ep *bootstrapRun) {
	o := s.opts.Generic
	begin := time.Now()
	s.life.shuttingDown.Store(true)
	s.lg.Info("graceful shutdown started; /readyz fails from now on",
		zap.Duration("delay", o.ShutdownDelayDuration), zap.Bool("sendRetryAfter", o.ShutdownSendRetryAfter),
		zap.Duration("watchTerminationGracePeriod", o.ShutdownWatchTerminationGracePeriod))
	ep.cancel()
	<-ep.done
	if ep.c != nil {
		ctx, cancel := context.WithTimeout(context.Background(), removeSelfTimeout)
		if err := ep.c.RemoveSelf(ctx); err != nil {
			s.lg.Warn("cannot remove this server from the platform endpoints; its record expires with its lease", zap.Error(err))
		}
		cancel()
	}
	left := time.Since(begin)
	<-time.After(o.ShutdownDelayDuration)
	s.life.notAccepting.Store(true)
	var closing sync.WaitGroup
	closed := make(chan struct{})
	var listenersClosed time.Time
	closeListeners := func() {
		listenersClosed = time.Now()
		for _, srv := range servers {
			closing.Go(func() { _ = srv.Shutdown(context.Background()) })
		}
		go func() { closing.Wait(); close(closed) }()
	}
	if !o.ShutdownSendRetryAfter {
		closeListeners()
	}
	ctx, cancel := context.WithTimeout(context.Background(), o.RequestTimeout)
	drained := s.life.requests.wait(ctx)
	cancel()
	if !drained {
		s.lg.Warn("requests still in flight after --request-timeout; closing anyway")
	}
	requestsEnded := time.Since(begin)
	if o.ShutdownSendRetryAfter {
		closeListeners()
	}
	watches := s.life.watches.closeAll(context.Background(), o.ShutdownWatchTerminationGracePeriod)
	watchesEnded := time.Since(begin)
	select {
	case <-closed:
	case <-time.After(time.Until(listenersClosed.Add(firstRequestGrace))):
		if n := s.life.fresh.closeAll(); n > 0 {
			s.lg.Info("closed connections that had not begun a request", zap.Int("connections", n))
		}
	}
	select {
	case <-closed:
	case <-time.After(closeTimeout):
		s.lg.Warn("connections still open after their requests were ended; closing them")
		s.closeServers(servers, 0)
	}
	// The phases' ends, from the start, say where a slow exit waited.
	s.lg.Info("graceful shutdown done", zap.Duration("took", time.Since(begin)), zap.Int("watchesClosed", watches),
		zap.Duration("leftEndpoints", left), zap.Duration("requestsEnded", requestsEnded), zap.Duration("watchesEnded", watchesEnded))
}

// closeServers shuts the servers down, waiting up to grace for their
// requests, then closes every connection.
func (s *Server) closeServers(servers []*http.Server, grace time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	var wg sync.WaitGroup
	for _, srv := range servers {
		wg.Go(func() {
			if err := srv.Shutdown(ctx); errors.Is(err, context.DeadlineExceeded) {
				_ = srv.Close()
			}
		})
	}
	wg.Wait()
}
