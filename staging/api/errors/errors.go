// Package errors turns API failures into Status values and back. The server
// builds a StatusError for every failure and writes its Status; the client
// decodes a Status body into a StatusError, and both sides classify it with
// the IsXxx predicates, which look at the reason and code, never at text.
package errors

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"platform.io/client/api/meta"
)

// StatusError is an error carrying the Status the server returns for it.
type StatusError struct {
	ErrStatus meta.Status
}

func (e *StatusError) Error() string { return e.ErrStatus.Message }

// Status returns the Status to write, with its TypeMeta filled in.
func (e *StatusError) Status() meta.Status {
	s := e.ErrStatus
	s.Kind, s.APIVersion = "Status", "v1"
	if s.Status == "" {
		s.Status = meta.StatusFailure
	}
	return s
}

// New returns a StatusError with the given code, reason and message.
func New(code int32, reason meta.StatusReason, msg string) *StatusError {
	return &StatusError{meta.Status{Status: meta.StatusFailure, Code: code, Reason: reason, Message: msg}}
}

func newFor(code int32, reason meta.StatusReason, gr meta.GroupResource, name, msg string) *StatusError {
	e := New(code, reason, msg)
	e.ErrStatus.Details = &meta.StatusDetails{Group: gr.Group, Kind: gr.Resource, Name: name}
	return e
}

// NewNotFound is 404 for a named object.
func NewNotFound(gr meta.GroupResource, name string) *StatusError {
	return newFor(http.StatusNotFound, meta.StatusReasonNotFound, gr, name, fmt.Sprintf("%s %q not found", gr, name))
}

// NewAlreadyExists is 409 for a create of an existing name.
func NewAlreadyExists(gr meta.GroupResource, name string) *StatusError {
	return newFor(http.StatusConflict, meta.StatusReasonAlreadyExists, gr, name, fmt.Sprintf("%s %q already exists", gr, name))
}

// NewConflict is 409 for an optimistic-lock failure.
func NewConflict(gr meta.GroupResource, name string, err error) *StatusError {
	return newFor(http.StatusConflict, meta.StatusReasonConflict, gr, name,
		fmt.Sprintf("Operation cannot be fulfilled on %s %q: %v", gr, name, err))
}

// NewNotLeader is 409 Conflict for a write whose sender named a leader
// lock it no longer holds (see platform.io/client/rest.LeaderLockHeader).
// lock names the lock object ("leases.coordination.platform.io
// platform-system/platform-scheduler"), why says what the server found.
func NewNotLeader(gr meta.GroupResource, name, lock, why string) *StatusError {
	e := newFor(http.StatusConflict, meta.StatusReasonConflict, gr, name,
		fmt.Sprintf("the writer is not the leader: lock %s: %s", lock, why))
	e.ErrStatus.Details.Causes = []meta.StatusCause{{Type: meta.CauseTypeNotLeader, Message: why, Field: lock}}
	return e
}

// IsNotLeader reports a 409 refusing a write whose leader lock is no
// longer held by its sender.
func IsNotLeader(err error) bool {
	var se *StatusError
	if !errors.As(err, &se) || se.ErrStatus.Code != http.StatusConflict || se.ErrStatus.Details == nil {
		return false
	}
	for _, c := range se.ErrStatus.Details.Causes {
		if c.Type == meta.CauseTypeNotLeader {
			return true
		}
	}
	return false
}

// NewGone is 410 for a watch from history that is no longer kept.
func NewGone(msg string) *StatusError { return New(http.StatusGone, meta.StatusReasonGone, msg) }

// NewResourceExpired is 410 with reason Expired, for an expired continue token or resource version.
func NewResourceExpired(msg string) *StatusError {
	return New(http.StatusGone, meta.StatusReasonExpired, msg)
}

// NewBadRequest is 400.
func NewBadRequest(msg string) *StatusError {
	return New(http.StatusBadRequest, meta.StatusReasonBadRequest, msg)
}

// NewForbidden is 403.
func NewForbidden(gr meta.GroupResource, name string, err error) *StatusError {
	var msg string
	switch {
	case gr.Resource == "":
		msg = fmt.Sprintf("forbidden: %v", err)
	case name == "":
		msg = fmt.Sprintf("%s is forbidden: %v", gr, err)
	default:
		msg = fmt.Sprintf("%s %q is forbidden: %v", gr, name, err)
	}
	return newFor(http.StatusForbidden, meta.StatusReasonForbidden, gr, name, msg)
}

// NewMethodNotSupported is 405.
func NewMethodNotSupported(gr meta.GroupResource, action string) *StatusError {
	return newFor(http.StatusMethodNotAllowed, meta.StatusReasonMethodNotAllowed, gr, "",
		fmt.Sprintf("%s is not supported on resources of kind %q", action, gr))
}

// NewNotAcceptable is 406.
func NewNotAcceptable(msg string) *StatusError {
	return New(http.StatusNotAcceptable, meta.StatusReasonNotAcceptable, msg)
}

// NewUnsupportedMediaType is 415.
func NewUnsupportedMediaType(msg string) *StatusError {
	return New(http.StatusUnsupportedMediaType, meta.StatusReasonUnsupportedMediaType, msg)
}

// NewRequestEntityTooLarge is 413.
func NewRequestEntityTooLarge(msg string) *StatusError {
	return New(http.StatusRequestEntityTooLarge, meta.StatusReasonRequestEntityTooLarge, msg)
}

// NewTooManyRequests is 429 with a retry hint.
func NewTooManyRequests(msg string, retryAfterSeconds int32) *StatusError {
	e := New(http.StatusTooManyRequests, meta.StatusReasonTooManyRequests, msg)
	e.ErrStatus.Details = &meta.StatusDetails{RetryAfterSeconds: retryAfterSeconds}
	return e
}

// NewTimeout is 504 for a request that ran past its deadline.
func NewTimeout(msg string, retryAfterSeconds int32) *StatusError {
	e := New(http.StatusGatewayTimeout, meta.StatusReasonTimeout, msg)
	e.ErrStatus.Details = &meta.StatusDetails{RetryAfterSeconds: retryAfterSeconds}
	return e
}

// NewServiceUnavailable is 503.
func NewServiceUnavailable(msg string) *StatusError {
	return New(http.StatusServiceUnavailable, meta.StatusReasonServiceUnavailable, msg)
}

// NewInternalError is 500 for a failure that is not the client's fault.
func NewInternalError(err error) *StatusError {
	e := New(http.StatusInternalServerError, meta.StatusReasonInternalError,
		fmt.Sprintf("Internal error occurred: %v", err))
	e.ErrStatus.Details = &meta.StatusDetails{Causes: []meta.StatusCause{{Message: err.Error()}}}
	return e
}

// NewInvalid is 422 for an object that fails validation, with one cause per field error.
func NewInvalid(kind meta.GroupVersionKind, name string, causes []meta.StatusCause) *StatusError {
	msgs := make([]string, len(causes))
	for i, c := range causes {
		msgs[i] = c.Message
		if c.Field != "" {
			msgs[i] = c.Field + ": " + c.Message
		}
	}
	msg := fmt.Sprintf("%s %q is invalid: ", kind.Kind, name)
	if len(msgs) == 1 {
		msg += msgs[0]
	} else {
		msg += "[" + strings.Join(msgs, ", ") + "]"
	}
	e := New(http.StatusUnprocessableEntity, meta.StatusReasonInvalid, msg)
	e.ErrStatus.Details = &meta.StatusDetails{Group: kind.Group, Kind: kind.Kind, Name: name, Causes: causes}
	return e
}

// FromStatus wraps a Status decoded from a response.
func FromStatus(s meta.Status) *StatusError { return &StatusError{ErrStatus: s} }

// ReasonForError returns the reason of a StatusError anywhere in err's chain.
func ReasonForError(err error) meta.StatusReason {
	var se *StatusError
	if errors.As(err, &se) {
		return se.ErrStatus.Reason
	}
	return meta.StatusReasonUnknown
}

// CodeForError returns the HTTP code of a StatusError anywhere in err's chain, or 0.
func CodeForError(err error) int32 {
	var se *StatusError
	if errors.As(err, &se) {
		return se.ErrStatus.Code
	}
	return 0
}

func hasReasonOrCode(err error, reason meta.StatusReason, code int32) bool {
	r := ReasonForError(err)
	return r == reason || (r == meta.StatusReasonUnknown && code != 0 && CodeForError(err) == code)
}

// IsNotFound reports a 404 NotFound.
func IsNotFound(err error) bool { return hasReasonOrCode(err, meta.StatusReasonNotFound, 404) }

// IsAlreadyExists reports a 409 AlreadyExists.
func IsAlreadyExists(err error) bool { return ReasonForError(err) == meta.StatusReasonAlreadyExists }

// IsConflict reports a 409 Conflict (optimistic lock).
func IsConflict(err error) bool { return hasReasonOrCode(err, meta.StatusReasonConflict, 409) }

// IsInvalid reports a 422 Invalid.
func IsInvalid(err error) bool { return hasReasonOrCode(err, meta.StatusReasonInvalid, 422) }

// IsBadRequest reports a 400.
func IsBadRequest(err error) bool { return hasReasonOrCode(err, meta.StatusReasonBadRequest, 400) }

// IsForbidden reports a 403.
func IsForbidden(err error) bool { return hasReasonOrCode(err, meta.StatusReasonForbidden, 403) }

// IsGone reports a 410 Gone.
func IsGone(err error) bool { return ReasonForError(err) == meta.StatusReasonGone }

// IsResourceExpired reports a 410 Expired.
func IsResourceExpired(err error) bool { return ReasonForError(err) == meta.StatusReasonExpired }

// IsTooManyRequests reports a 429.
func IsTooManyRequests(err error) bool {
	return hasReasonOrCode(err, meta.StatusReasonTooManyRequests, 429)
}

// IsTimeout reports a 504 Timeout.
func IsTimeout(err error) bool { return hasReasonOrCode(err, meta.StatusReasonTimeout, 504) }

// IsMethodNotSupported reports a 405.
func IsMethodNotSupported(err error) bool {
	return hasReasonOrCode(err, meta.StatusReasonMethodNotAllowed, 405)
}

// IsNotAcceptable reports a 406.
func IsNotAcceptable(err error) bool {
	return hasReasonOrCode(err, meta.StatusReasonNotAcceptable, 406)
}

// IsUnsupportedMediaType reports a 415.
func IsUnsupportedMediaType(err error) bool {
	return hasReasonOrCode(err, meta.StatusReasonUnsupportedMediaType, 415)
}

// FromHTTPStatus builds the StatusError for a response whose body is not a
// Status: the reason follows from the HTTP code as upstream's clients derive
// it, and retryAfterSeconds, when positive, is kept as the server's hint.
func FromHTTPStatus(code int32, message string, retryAfterSeconds int32) *StatusError {
	e := New(code, reasonForCode(code), message)
	if retryAfterSeconds > 0 {
		e.ErrStatus.Details = &meta.StatusDetails{RetryAfterSeconds: retryAfterSeconds}
	}
	return e
}

// reasonForCode is the reason a bare HTTP code stands for.
func reasonForCode(code int32) meta.StatusReason {
	switch code {
	case http.StatusBadRequest:
		return meta.StatusReasonBadRequest
	case http.StatusUnauthorized:
		return meta.StatusReasonUnauthorized
	case http.StatusForbidden:
		return meta.StatusReasonForbidden
	case http.StatusNotFound:
		return meta.StatusReasonNotFound
	case http.StatusMethodNotAllowed:
		return meta.StatusReasonMethodNotAllowed
	case http.StatusNotAcceptable:
		return meta.StatusReasonNotAcceptable
	case http.StatusConflict:
		return meta.StatusReasonConflict
	case http.StatusGone:
		return meta.StatusReasonGone
	case http.StatusRequestEntityTooLarge:
		return meta.StatusReasonRequestEntityTooLarge
	case http.StatusUnsupportedMediaType:
		return meta.StatusReasonUnsupportedMediaType
	case http.StatusUnprocessableEntity:
		return meta.StatusReasonInvalid
	case http.StatusTooManyRequests:
		return meta.StatusReasonTooManyRequests
	case http.StatusServiceUnavailable:
		return meta.StatusReasonServiceUnavailable
	case http.StatusGatewayTimeout:
		return meta.StatusReasonTimeout
	}
	if code >= 500 {
		return meta.StatusReasonInternalError
	}
	return meta.StatusReasonUnknown
}

// IsUnauthorized reports a 401.
func IsUnauthorized(err error) bool {
	return hasReasonOrCode(err, meta.StatusReasonUnauthorized, 401)
}

// IsServiceUnavailable reports a 503.
func IsServiceUnavailable(err error) bool {
	return hasReasonOrCode(err, meta.StatusReasonServiceUnavailable, 503)
}
