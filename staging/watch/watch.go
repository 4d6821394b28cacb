// Package watch is the typed form of a watch stream that typed clients
// produce and informers consume: events of one object type, in the order
// the server sent them, ending when the stream ends or Stop is called.
package watch

import "platform.io/client/api/meta"

// EventType is the type of a watch event, as the server names it.
type EventType string

// The event types.
const (
	Added    EventType = meta.Added
	Modified EventType = meta.Modified
	Deleted  EventType = meta.Deleted
	Bookmark EventType = meta.Bookmark
	Error    EventType = meta.Error
)

// Event is one change. For Bookmark, Object carries only
// metadata.resourceVersion; for Error, Object is the zero value and Status
// says what went wrong (for example 410 Expired).
type Event[T any] struct {
	Type   EventType
	Object T
	Status *meta.Status
}

// Interface is an open watch. ResultChan is closed when the stream ends;
// Stop ends it early and may be called more than once.
type Interface[T any] interface {
	ResultChan() <-chan Event[T]
	Stop()
}
