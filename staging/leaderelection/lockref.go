package leaderelection

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
)

// LockRef names the lock a leader holds and its term: the value of
// platform.io/client/rest.LeaderLockHeader. Written out it is
//
//	resource=leases.coordination.platform.io; namespace=platform-system; name=platform-scheduler; holder=host_6f1c; transitions=3
//
// with each value query-escaped. Only Lease locks can be checked by the
// API server, so only locks with a Lease (leases, endpointsleases,
// configmapsleases) have one.
type LockRef struct {
	// Group and Resource name the lock object's kind
	// ("coordination.platform.io", "leases").
	Group, Resource string
	Namespace, Name string
	// Holder is the holder identity the leader wrote.
	Holder string
	// Transitions is the lease's leaseTransitions in this leader's term.
	Transitions int32
}

// ErrBadLockRef is wrapped by the errors of ParseLockRef.
var ErrBadLockRef = errors.New("malformed leader lock")

// lockRefKeys are the fields of a written LockRef, in order.
var lockRefKeys = []string{"resource", "namespace", "name", "holder", "transitions"}

// String writes r as the header value.
func (r LockRef) String() string {
	vals := []string{r.Resource + "." + r.Group, r.Namespace, r.Name, r.Holder, strconv.FormatInt(int64(r.Transitions), 10)}
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = lockRefKeys[i] + "=" + url.QueryEscape(v)
	}
	return strings.Join(parts, "; ")
}

// Object names the lock object: "leases.coordination.platform.io ns/name".
func (r LockRef) Object() string {
	return r.Resource + "." + r.Group + " " + r.Namespace + "/" + r.Name
}

// ParseLockRef reads a header value written by String. Every field is
// required, once; unknown fields are an error.
func ParseLockRef(s string) (LockRef, error) {
	seen := map[string]string{}
	for _, part := range strings.Split(s, ";") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return LockRef{}, fmt.Errorf("%w: %q is not key=value", ErrBadLockRef, strings.TrimSpace(part))
		}
		if _, dup := seen[k]; dup {
			return LockRef{}, fmt.Errorf("%w: %s given twice", ErrBadLockRef, k)
		}
		uv, err := url.QueryUnescape(v)
		if err != nil {
			return LockRef{}, fmt.Errorf("%w: %s: %v", ErrBadLockRef, k, err)
		}
		seen[k] = uv
	}
	for _, k := range lockRefKeys {
		if seen[k] == "" {
			return LockRef{}, fmt.Errorf("%w: %s is missing", ErrBadLockRef, k)
		}
	}
	if len(seen) != len(lockRefKeys) {
		return LockRef{}, fmt.Errorf("%w: unknown fields (want only %s)", ErrBadLockRef, strings.Join(lockRefKeys, ", "))
	}
	res, group, ok := strings.Cut(seen["resource"], ".")
	if !ok || res == "" || group == "" {
		return LockRef{}, fmt.Errorf("%w: resource %q is not <resource>.<group>", ErrBadLockRef, seen["resource"])
	}
	n, err := strconv.ParseInt(seen["transitions"], 10, 64)
	if err != nil || n < 0 || n > math.MaxInt32 {
		return LockRef{}, fmt.Errorf("%w: transitions %q is not a count", ErrBadLockRef, seen["transitions"])
	}
	return LockRef{Group: group, Resource: res, Namespace: seen["namespace"], Name: seen["name"],
		Holder: seen["holder"], Transitions: int32(n)}, nil
}

// fenceable is implemented by locks the API server can check a LockRef
// against: those kept in, or mirrored to, a Lease.
type fenceable interface {
	// leaseRef names the Lease and holder; Transitions is left zero.
	leaseRef() (LockRef, bool)
}

func (l *objectLock[T, P]) leaseRef() (LockRef, bool) {
	if l.codec.res.Resource != "leases" {
		return LockRef{}, false
	}
	return LockRef{Group: l.codec.res.Group, Resource: l.codec.res.Resource,
		Namespace: l.namespace, Name: l.name, Holder: l.identity}, true
}

func (m *multiLock) leaseRef() (LockRef, bool) {
	if f, ok := m.secondary.(fenceable); ok {
		return f.leaseRef()
	}
	return LockRef{}, false
}

// LockRefOf returns the LockRef of a term of lock's holder with the given
// transition count; false when the lock has no Lease to check it against.
func LockRefOf(lock Lock, transitions int) (LockRef, bool) {
	f, ok := lock.(fenceable)
	if !ok {
		return LockRef{}, false
	}
	r, ok := f.leaseRef()
	r.Transitions = int32(transitions)
	return r, ok
}
