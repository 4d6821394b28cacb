package leaderelection

import (
	"time"

	"platform.io/client/api/meta"
)

// LeaderElectionRecord is who holds a lock and how long others must wait
// before taking it. Endpoints and ConfigMap locks store it as JSON in the
// LeaderAnnotationKey annotation; Lease locks map it onto the Lease spec.
// The times are for people reading the record: the election itself never
// compares them with a clock. They are written as RFC 3339 strings with
// microseconds (which upstream clients parse), so that every renewal
// changes the record, even several within one second.
type LeaderElectionRecord struct {
	// HolderIdentity is the holder; empty means nobody holds the lock and
	// any candidate may take it at once.
	HolderIdentity string `json:"holderIdentity"`
	// LeaseDurationSeconds is how long candidates wait, after they last
	// saw the record change, before taking the lock.
	LeaseDurationSeconds int `json:"leaseDurationSeconds"`
	// AcquireTime is when the holder took the lock.
	AcquireTime meta.MicroTime `json:"acquireTime"`
	// RenewTime is when the holder last renewed it.
	RenewTime meta.MicroTime `json:"renewTime"`
	// LeaderTransitions counts the changes of holder.
	LeaderTransitions int `json:"leaderTransitions"`
}

// Names shared with other clients of the same locks.
const (
	// LeaderAnnotationKey is the annotation holding the record on
	// Endpoints and ConfigMap locks.
	LeaderAnnotationKey = "control-plane.alpha.platform.io/leader"
	// DefaultNamespace is where NewLock puts a lock given no namespace.
	DefaultNamespace = "platform-system"
	// UnknownLeader is the holder a two-object lock reports when its
	// objects name different holders; it is nobody's identity, so such a
	// lock is taken only after it has stayed unchanged for a lease.
	UnknownLeader = "leaderelection.platform.io/unknown"
)

// durationSeconds is d in whole seconds, rounded up so a record never
// advertises a shorter lease than the candidate waits for, and at least 1.
func durationSeconds(d time.Duration) int {
	s := int((d + time.Second - 1) / time.Second)
	return max(s, 1)
}
