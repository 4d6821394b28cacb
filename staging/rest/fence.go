package rest

import (
	"net/http"
	"sync/atomic"

	apierrors "platform.io/client/api/errors"
)

// LeaderLockHeader is the request header in which a leader names the lock
// it believes it holds; the API server refuses the write (409 Conflict,
// cause NotLeader) unless the lock is still held by that holder at that
// transition, checked in the same etcd transaction as the write. Its value
// is written and read by platform.io/client/leaderelection (LockRef).
const LeaderLockHeader = "X-Platform-Leader-Lock"

// Fence is the value a leader's work client sends in LeaderLockHeader
// with every write (POST, PUT, PATCH, DELETE); reads never carry it. The
// elector sets it when it starts leading; empty (the zero Fence) sends
// nothing. It is safe for concurrent use.
type Fence struct {
	v atomic.Pointer[string]
}

// Set makes every later write carry value; "" stops sending the header.
func (f *Fence) Set(value string) { f.v.Store(&value) }

// Value is what writes carry now, "" for nothing.
func (f *Fence) Value() string {
	if p := f.v.Load(); p != nil {
		return *p
	}
	return ""
}

// FenceMetrics is implemented by a Config's Metrics that count the writes
// refused because the lock they carried was no longer held by the sender.
type FenceMetrics interface {
	IncNotLeader(verb string)
}

// WithFence returns a client that shares c's settings, connections and
// rate limiter and sends f's value with every write.
func (c *Client) WithFence(f *Fence) *Client {
	n := *c
	n.fence = f
	return &n
}

// fenceValue is what this request carries in LeaderLockHeader.
func (r *Request) fenceValue() string {
	if r.c.fence == nil {
		return ""
	}
	switch r.verb {
	case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		return r.c.fence.Value()
	}
	return ""
}

// countNotLeader reports a write that carried a lock and was refused for it.
func (r *Request) countNotLeader(err error) {
	if r.sentFence == "" || !apierrors.IsNotLeader(err) {
		return
	}
	if m, ok := r.c.cfg.Metrics.(FenceMetrics); ok {
		m.IncNotLeader(r.verb)
	}
}
