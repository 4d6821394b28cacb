package server

import (
	"context"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	coordinationv1 "platform.io/client/api/coordination/v1"
	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"

	"platform.io/platform/pkg/apiserver/endpoints"
	"platform.io/platform/pkg/component/authn"
)

// longRunning reports whether a request may stay open indefinitely
// (watches), which the in-flight limits and the request timeout skip.
func longRunning(r *http.Request) bool {
	return endpoints.RequestInfoFor(r).Verb == "watch"
}

func mutating(r *http.Request) bool {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return false
	}
	return true
}

// exemptFromLimits reports whether a request skips the in-flight limits:
// one from a member of system:masters (as upstream), or one of the writes
// and reads that keep a daemon or a node alive: leases in any namespace
// (leader election, node heartbeats) and the system namespace's endpoints
// and config maps that leader election's older locks use. Shedding those
// under load would turn an overload into leader churn and nodes marked
// unreachable, which adds load. Authorization runs before this filter, so
// only a user allowed to write those objects gets through it.
func exemptFromLimits(r *http.Request, info *endpoints.RequestInfo) bool {
	if u, ok := authn.UserFrom(r.Context()); ok && slices.Contains(u.Groups, authn.SystemPrivilegedGroup) {
		return true
	}
	if !info.IsResourceRequest || info.Subresource != "" || info.Name == "" && info.Verb != "create" {
		return false
	}
	switch info.Verb {
	case "get", "create", "update":
	default:
		return false
	}
	switch {
	case info.APIGroup == coordinationv1.GroupName && info.Resource == "leases":
		return true
	case info.APIGroup == "" && info.Namespace == corev1.NamespaceSystem:
		return info.Resource == "endpoints" || info.Resource == "configmaps"
	}
	return false
}

// withMaxInFlight rejects requests with 429 while readOnly (or mutating)
// requests are already running; 0 means no limit. Long-running requests
// and those exemptFromLimits names are not counted.
func withMaxInFlight(h http.Handler, readOnly, mut int, reg prometheus.Registerer) http.Handler {
	gauge := prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "apiserver_current_inflight_requests",
		Help: "Requests being served, by kind (readOnly or mutating).",
	}, []string{"request_kind"})
	rejected := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "apiserver_dropped_requests_total",
		Help: "Requests rejected with 429 because too many were in flight, by kind.",
	}, []string{"request_kind"})
	reg.MustRegister(gauge, rejected)
	slots := map[bool]chan struct{}{}
	if readOnly > 0 {
		slots[false] = make(chan struct{}, readOnly)
	}
	if mut > 0 {
		slots[true] = make(chan struct{}, mut)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if info := endpoints.RequestInfoFor(r); info.Verb == "watch" || exemptFromLimits(r, info) {
			h.ServeHTTP(w, r)
			return
		}
		isMut := mutating(r)
		kind := "readOnly"
		if isMut {
			kind = "mutating"
		}
		ch := slots[isMut]
		if ch == nil {
			h.ServeHTTP(w, r)
			return
		}
		select {
		case ch <- struct{}{}:
			gauge.WithLabelValues(kind).Inc()
			defer func() { <-ch; gauge.WithLabelValues(kind).Dec() }()
			h.ServeHTTP(w, r)
		default:
			rejected.WithLabelValues(kind).Inc()
			endpoints.WriteError(w, r, apierrors.NewTooManyRequests("too many requests, please try again later", 1))
		}
	})
}

// withTimeout answers 504 when a request that is not long-running takes
// longer than timeout. The handler runs on the request's own goroutine
// (whose stack has grown on earlier requests of the connection; a fresh
// goroutine per request spent a tenth of the handlers' CPU growing its
// stack) with a context that ends at the timeout. When the timeout passes
// first, a timer writes the 504 and flushes it (over HTTP/1 with
// "Connection: close", so the client has its answer at once and does not
// send more on a connection still busy with the handler); anything the
// handler writes later is dropped. Handlers see the context end and return.
func withTimeout(h http.Handler, timeout time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if longRunning(r) {
			h.ServeHTTP(w, r)
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), timeout)
		defer cancel()
		tw := &timeoutWriter{w: w, header: http.Header{}}
		timer := time.AfterFunc(timeout, func() { tw.timeout(r, timeout) })
		defer func() {
			timer.Stop()
			tw.finish()
		}()
		h.ServeHTTP(tw, r.WithContext(ctx))
	})
}

// timeoutWriter passes a handler's response through until the timeout,
// after which it drops it. Once the handler has returned (finish) the
// timeout does nothing: the underlying writer is only used under mu and
// never after finish.
type timeoutWriter struct {
	w http.ResponseWriter
	// mu guards header, wroteHeader, timedOut and finished.
	mu          sync.Mutex
	header      http.Header
	wroteHeader bool
	timedOut    bool
	finished    bool
}

// finish marks the handler as returned, waiting for a timeout being
// written.
func (tw *timeoutWriter) finish() {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	tw.finished = true
}

func (tw *timeoutWriter) Header() http.Header { return tw.header }

func (tw *timeoutWriter) WriteHeader(code int) {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	tw.writeHeaderLocked(code)
}

func (tw *timeoutWriter) writeHeaderLocked(code int) {
	if tw.timedOut || tw.wroteHeader {
		return
	}
	tw.wroteHeader = true
	for k, v := range tw.header {
		tw.w.Header()[k] = v
	}
	tw.w.WriteHeader(code)
}

func (tw *timeoutWriter) Write(b []byte) (int, error) {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	if tw.timedOut {
		return 0, http.ErrHandlerTimeout
	}
	tw.writeHeaderLocked(http.StatusOK)
	return tw.w.Write(b)
}

func (tw *timeoutWriter) Flush() {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	if !tw.timedOut {
		if f, ok := tw.w.(http.Flusher); ok {
			f.Flush()
		}
	}
}

// timeout ends the response: a 504 Status if nothing was written yet.
func (tw *timeoutWriter) timeout(r *http.Request, after time.Duration) {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	if tw.finished || tw.timedOut {
		return
	}
	tw.timedOut = true
	if tw.wroteHeader {
		return
	}
	if r.ProtoMajor == 1 {
		// HTTP/2 streams are independent: the connection stays open.
		tw.w.Header().Set("Connection", "close")
	}
	endpoints.WriteError(tw.w, r, apierrors.NewTimeout("the request "+r.Method+" "+r.URL.Path+" did not complete within "+after.String(), 0))
	if f, ok := tw.w.(http.Flusher); ok {
		f.Flush()
	}
}
