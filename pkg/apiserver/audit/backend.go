package audit

import (
	"context"
	"strings"
	"sync"

	auditv1 "platform.io/client/api/audit/v1"
)

// Sink receives audit events.
type Sink interface {
	// ProcessEvents records events, or queues them to be recorded. It
	// returns false only when they could not be recorded and the caller
	// should fail the request (blocking-strict); the backends say
	// themselves which of their failures that is. Events must not be
	// changed by the sink; it may keep them.
	ProcessEvents(events ...*auditv1.Event) bool
}

// Backend is a Sink with background work.
type Backend interface {
	Sink
	// Run works until ctx ends, then records what it still holds and
	// returns. ProcessEvents may be called before Run starts.
	Run(ctx context.Context)
	// String names the backend for logs, e.g. "buffered<log>".
	String() string
}

// Union returns a backend sending every event to each of backends; it
// succeeds only when all of them do.
func Union(backends ...Backend) Backend {
	if len(backends) == 1 {
		return backends[0]
	}
	return union(backends)
}

type union []Backend

var _ Backend = union(nil)

func (u union) ProcessEvents(events ...*auditv1.Event) bool {
	ok := true
	for _, b := range u {
		ok = b.ProcessEvents(events...) && ok
	}
	return ok
}

func (u union) Run(ctx context.Context) {
	var wg sync.WaitGroup
	for _, b := range u {
		wg.Go(func() { b.Run(ctx) })
	}
	wg.Wait()
}

func (u union) String() string {
	names := make([]string, len(u))
	for i, b := range u {
		names[i] = b.String()
	}
	return "union[" + strings.Join(names, ",") + "]"
}

// IgnoreErrors makes b report success whatever happens: the blocking mode,
// which waits for the backend but never fails a request because of it.
func IgnoreErrors(b Backend) Backend { return ignoreErrors{b} }

type ignoreErrors struct{ Backend }

func (i ignoreErrors) ProcessEvents(events ...*auditv1.Event) bool {
	i.Backend.ProcessEvents(events...)
	return true
}

func (i ignoreErrors) String() string { return "ignoreErrors<" + i.Backend.String() + ">" }
