package framework

import (
	"errors"
	"strings"
)

// Code is the outcome of a plugin call.
type Code int

// The codes, as upstream's framework has them.
const (
	// Success: the pod may proceed; a nil *Status means Success too.
	Success Code = iota
	// Error: an internal failure; the pod is retried with backoff.
	Error
	// Unschedulable: the pod does not fit this node now; preemption may help.
	Unschedulable
	// UnschedulableAndUnresolvable: the pod does not fit this node and
	// preempting pods on it cannot change that.
	UnschedulableAndUnresolvable
	// Wait: a permit plugin holds the pod.
	Wait
	// Skip: a pre-filter or pre-score plugin has nothing to do for this
	// pod; its filter or score is not called.
	Skip
)

var codeNames = []string{"Success", "Error", "Unschedulable", "UnschedulableAndUnresolvable", "Wait", "Skip"}

func (c Code) String() string {
	if int(c) < len(codeNames) {
		return codeNames[c]
	}
	return "Unknown"
}

// Status is a plugin's answer: a code, the reasons shown to users (in
// FailedScheduling events: "Insufficient cpu"), and for Error the error.
type Status struct {
	code    Code
	reasons []string
	// one holds the reason of a status with one, the common case: filters
	// reject thousands of nodes per pod in large clusters, and a reason
	// list of its own would be a second allocation per rejection.
	one    [1]string
	err    error
	plugin string
}

// NewStatus returns a status with the code and (a copy of) the reasons.
func NewStatus(code Code, reasons ...string) *Status {
	s := &Status{code: code}
	switch len(reasons) {
	case 0:
	case 1:
		s.one[0] = reasons[0]
		s.reasons = s.one[:]
	default:
		s.reasons = append([]string(nil), reasons...)
	}
	return s
}

// AsStatus wraps an internal error; nil gives nil (Success).
func AsStatus(err error) *Status {
	if err == nil {
		return nil
	}
	return &Status{code: Error, reasons: []string{err.Error()}, err: err}
}

// Code returns the code; a nil status is Success.
func (s *Status) Code() Code {
	if s == nil {
		return Success
	}
	return s.code
}

// Reasons returns the user-facing reasons.
func (s *Status) Reasons() []string {
	if s == nil {
		return nil
	}
	return s.reasons
}

// Message joins the reasons.
func (s *Status) Message() string { return strings.Join(s.Reasons(), ", ") }

// AsError returns the status as an error: nil unless Error or a failure.
func (s *Status) AsError() error {
	if s.IsSuccess() || s.code == Skip || s.code == Wait {
		return nil
	}
	if s.err != nil {
		return s.err
	}
	return errors.New(s.Message())
}

// IsSuccess reports Success (or nil).
func (s *Status) IsSuccess() bool { return s.Code() == Success }

// IsSkip reports Skip.
func (s *Status) IsSkip() bool { return s.Code() == Skip }

// IsRejected reports Unschedulable, UnschedulableAndUnresolvable.
func (s *Status) IsRejected() bool {
	c := s.Code()
	return c == Unschedulable || c == UnschedulableAndUnresolvable
}

// Plugin names the plugin that returned the status, once the framework
// has recorded it.
func (s *Status) Plugin() string {
	if s == nil {
		return ""
	}
	return s.plugin
}

// WithPlugin records the plugin that returned s and returns s.
func (s *Status) WithPlugin(name string) *Status {
	if s != nil {
		s.plugin = name
	}
	return s
}

// Equal compares code and reasons (for tests).
func (s *Status) Equal(o *Status) bool {
	if s.Code() != o.Code() {
		return false
	}
	a, b := s.Reasons(), o.Reasons()
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// NodeToStatus maps node names to why the pod failed there.
type NodeToStatus map[string]*Status
