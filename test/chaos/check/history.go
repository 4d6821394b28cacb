package check

import (
	"fmt"
	"sync"
	"time"
)

// Kind is what an operation did.
type Kind int

// The operations of the workload.
const (
	// Create stores Value at Key if Key is absent.
	Create Kind = iota
	// Get reads Key.
	Get
	// Replace stores Value at Key if its resourceVersion is ExpectRV (a
	// compare-and-swap).
	Replace
	// Delete removes Key.
	Delete
	// List reads every key at one revision (a quorum list).
	List
)

func (k Kind) String() string {
	switch k {
	case Create:
		return "create"
	case Get:
		return "get"
	case Replace:
		return "replace"
	case Delete:
		return "delete"
	case List:
		return "list"
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// Outcome is what the client learnt of an operation.
type Outcome int

// The outcomes.
const (
	// OK: the server answered success.
	OK Outcome = iota
	// Failed: the server answered a definite refusal (404, 409, 422, 429,
	// ...), or the request was never sent: the operation had no effect.
	Failed
	// Unknown: a timeout, a reset connection or a 5xx: the operation may
	// or may not have taken effect, now or later.
	Unknown
)

func (o Outcome) String() string {
	switch o {
	case OK:
		return "ok"
	case Failed:
		return "failed"
	case Unknown:
		return "unknown"
	}
	return fmt.Sprintf("outcome(%d)", int(o))
}

// Object is a key's state when it is present: the value the workload
// wrote (every write writes a value of its own) and its resourceVersion.
type Object struct {
	Value string
	RV    int64
}

// Op is one recorded call. Times are nanoseconds since the recorder
// started.
type Op struct {
	Client int
	Kind   Kind
	// Key is the object's name; empty for a List.
	Key string
	// Value is what a Create or Replace writes.
	Value string
	// ExpectRV is a Replace's precondition.
	ExpectRV int64
	Call     int64
	Return   int64
	Outcome  Outcome
	// Found and Obj are a Get's answer (Found false: 404), and Obj.RV the
	// resourceVersion a successful Create or Replace was given.
	Found bool
	Obj   Object
	// ListRV and Items are a successful List's answer.
	ListRV int64
	Items  map[string]Object
	// Code is the HTTP status of a Failed operation's answer; 0 when the
	// request was never sent. Only 404 and 409 say anything of the key's
	// state (absent; present, or at another resourceVersion).
	Code int
	// Err is the error's text, for reports.
	Err string
}

func (o Op) String() string {
	s := fmt.Sprintf("client %d %s", o.Client, o.Kind)
	switch o.Kind {
	case Create:
		s += fmt.Sprintf(" %s=%s", o.Key, o.Value)
	case Replace:
		s += fmt.Sprintf(" %s=%s if rv=%d", o.Key, o.Value, o.ExpectRV)
	case Get, Delete:
		s += " " + o.Key
	}
	s += fmt.Sprintf(" [%.3fs,%.3fs] -> %s", float64(o.Call)/1e9, float64(o.Return)/1e9, o.Outcome)
	switch {
	case o.Outcome != OK:
		if o.Err != "" {
			s += " (" + o.Err + ")"
		}
	case o.Kind == List:
		s += fmt.Sprintf(" rv=%d %s", o.ListRV, describeItems(o.Items))
	case o.Kind == Get && !o.Found:
		s += " not found"
	case o.Kind != Delete:
		s += fmt.Sprintf(" %s@%d", o.Obj.Value, o.Obj.RV)
	}
	return s
}

// EventType is a watch event's type.
type EventType string

// The watch event types the checks know.
const (
	Added    EventType = "ADDED"
	Modified EventType = "MODIFIED"
	Deleted  EventType = "DELETED"
	Bookmark EventType = "BOOKMARK"
)

// Event is one watch event as a watcher received it: for Deleted, Value
// is the object's last value and RV the revision of the delete.
type Event struct {
	Type  EventType
	Key   string
	Value string
	RV    int64
	// At is when it was received.
	At int64
}

// Session is a watcher's view from one list: the list's answer, then the
// events of every watch it started from the list's or the last event's
// resourceVersion, up to the next relist (after a 410) or the end.
type Session struct {
	ListRV int64
	Items  map[string]Object
	ListAt int64
	Events []Event
	// Reconnects counts the watches started after the first one.
	Reconnects int
}

// Watch is one watcher's record.
type Watch struct {
	ID       int
	Sessions []Session
}

// History is everything a run recorded.
type History struct {
	Ops     []Op
	Watches []Watch
	// Keys are every key the workload used.
	Keys []string
	// Final is the quorum list taken after the workload stopped; every
	// watcher's replayed state must equal it.
	Final *Op
}

// Recorder collects operations from concurrent clients. Its zero value is
// not usable; use NewRecorder.
type Recorder struct {
	start time.Time
	// mu guards ops.
	mu  sync.Mutex
	ops []Op
}

// NewRecorder starts the clock of a history.
func NewRecorder() *Recorder { return &Recorder{start: time.Now()} }

// Now is the time since the recorder started, in nanoseconds.
func (r *Recorder) Now() int64 { return int64(time.Since(r.start)) }

// Add records op.
func (r *Recorder) Add(op Op) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ops = append(r.ops, op)
}

// Ops returns a copy of what was recorded.
func (r *Recorder) Ops() []Op {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Op(nil), r.ops...)
}
