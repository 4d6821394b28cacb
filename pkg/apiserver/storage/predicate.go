package storage

import (
	"platform.io/client/api/fields"
	"platform.io/client/api/labels"
)

// Attrs are the attributes selectors look at: an object's labels and its
// selectable fields (metadata.name, metadata.namespace and per-type fields).
type Attrs struct {
	Labels labels.Set
	Fields fields.Set
}

// AttrFunc computes the attributes of a stored value.
type AttrFunc func(key string, value []byte) (Attrs, error)

// Predicate selects stored objects by label and field selectors.
type Predicate struct {
	Label labels.Selector
	Field fields.Selector
	// GetAttrs computes attributes from stored bytes; the watch cache keeps
	// them precomputed instead.
	GetAttrs AttrFunc
}

// Empty reports whether the predicate selects everything.
func (p Predicate) Empty() bool {
	return (p.Label == nil || p.Label.Empty()) && (p.Field == nil || p.Field.Empty())
}

// MatchesAttrs applies the selectors to attributes.
func (p Predicate) MatchesAttrs(a Attrs) bool {
	if p.Label != nil && !p.Label.Empty() && !p.Label.Matches(a.Labels) {
		return false
	}
	if p.Field != nil && !p.Field.Empty() && !p.Field.Matches(a.Fields) {
		return false
	}
	return true
}

// Matches applies the selectors to a stored value.
func (p Predicate) Matches(key string, value []byte) (bool, error) {
	if p.Empty() {
		return true, nil
	}
	a, err := p.GetAttrs(key, value)
	if err != nil {
		return false, err
	}
	return p.MatchesAttrs(a), nil
}

// Transition decides what a watcher with this predicate sees of a change,
// given whether the old and new states matched: a modification that makes
// an object match is ADDED, one that makes it stop matching is DELETED (of
// the new state), as upstream does. ok is false when the watcher sees nothing.
func Transition(t EventType, oldMatch, newMatch bool) (EventType, bool) {
	switch t {
	case Added:
		return Added, newMatch
	case Deleted:
		return Deleted, oldMatch
	case Modified:
		switch {
		case oldMatch && newMatch:
			return Modified, true
		case newMatch:
			return Added, true
		case oldMatch:
			return Deleted, true
		}
		return t, false
	}
	return t, true
}
