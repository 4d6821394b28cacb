package leaderelection

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Lock is the object candidates compete for. A Lock belongs to one
// candidate (Identity) and remembers the object it last read or wrote, so
// Update replaces exactly that version: a Lock is safe for concurrent use,
// but its Update is meaningful only after a Get or Create.
type Lock interface {
	// Get reads the record, and the raw bytes it was read from; two reads
	// return equal bytes exactly when the record did not change. A missing
	// object is an error that errors.IsNotFound recognises.
	Get(ctx context.Context) (*LeaderElectionRecord, []byte, error)
	// Create creates the lock object holding r.
	Create(ctx context.Context, r LeaderElectionRecord) error
	// Update writes r over the object last read or written; if the object
	// changed since, it fails with a Conflict and writes nothing.
	Update(ctx context.Context, r LeaderElectionRecord) error
	// RecordEvent reports a leadership change of this candidate.
	RecordEvent(msg string)
	// Identity is the candidate's identity.
	Identity() string
	// Describe names the lock object(s), as "namespace/name".
	Describe() string
}

// The lock kinds NewLock knows.
const (
	LeasesLock           = "leases"
	EndpointsLock        = "endpoints"
	ConfigMapsLock       = "configmaps"
	EndpointsLeasesLock  = "endpointsleases"
	ConfigMapsLeasesLock = "configmapsleases"
)

// ErrUnknownLockKind is wrapped by the error NewLock returns for a kind it
// does not know.
var ErrUnknownLockKind = errors.New("unknown lock kind")

// EventRecorder is told of leadership changes, to publish them as events
// on the lock object.
type EventRecorder interface {
	// Event reports one change. object is the lock object as last read or
	// written (*corev1.Endpoints, *corev1.ConfigMap or
	// *coordinationv1.Lease), or nil before the first read.
	Event(object any, eventType, reason, message string)
}

// LockOption adjusts a Lock made by NewLock.
type LockOption func(*lockOptions)

type lockOptions struct{ events EventRecorder }

// WithEventRecorder sends the lock's events to r; without it they are
// dropped.
func WithEventRecorder(r EventRecorder) LockOption {
	return func(o *lockOptions) { o.events = r }
}

// NewLock returns a lock of the given kind on namespace/name (namespace ""
// means DefaultNamespace) held as identity. For the two-object kinds the
// Endpoints or ConfigMap is the primary and a Lease of the same name the
// secondary.
func NewLock(kind, namespace, name, identity string, client Client, opts ...LockOption) (Lock, error) {
	if namespace == "" {
		namespace = DefaultNamespace
	}
	switch {
	case name == "":
		return nil, fmt.Errorf("leaderelection: lock name is empty")
	case identity == "":
		return nil, fmt.Errorf("leaderelection: lock identity is empty")
	case client == nil:
		return nil, fmt.Errorf("leaderelection: lock client is nil")
	}
	var o lockOptions
	for _, f := range opts {
		f(&o)
	}
	base := lockBase{namespace: namespace, name: name, identity: identity, client: client, events: o.events}
	switch kind {
	case LeasesLock:
		return newLeaseLock(base), nil
	case EndpointsLock:
		return newEndpointsLock(base), nil
	case ConfigMapsLock:
		return newConfigMapLock(base), nil
	case EndpointsLeasesLock:
		return &multiLock{primary: newEndpointsLock(base), secondary: newLeaseLock(base)}, nil
	case ConfigMapsLeasesLock:
		return &multiLock{primary: newConfigMapLock(base), secondary: newLeaseLock(base)}, nil
	}
	return nil, fmt.Errorf("leaderelection: %w %q (want one of %s)", ErrUnknownLockKind, kind, strings.Join(LockKinds(), ", "))
}

// LockKinds lists the kinds NewLock accepts.
func LockKinds() []string {
	return []string{LeasesLock, EndpointsLock, ConfigMapsLock, EndpointsLeasesLock, ConfigMapsLeasesLock}
}
