package endpoints

import (
	"fmt"
	"net/http"
	"time"

	coordinationv1 "platform.io/client/api/coordination/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/leaderelection"
	"platform.io/client/rest"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/storage"
)

// fenceWrite attaches to a write that names a leader lock
// (rest.LeaderLockHeader) the storage.Fence that refuses it unless the
// lock's Lease is still held by that holder at that transition and not
// expired by this server's clock, checked in the write's own etcd
// transaction. Reads and requests without the header are left alone. It
// returns the request to serve, or the error to answer with: 400 for a
// malformed header or a lock that is not a Lease.
func (h *Handler) fenceWrite(rt *routes, r *http.Request, info *RequestInfo) (*http.Request, error) {
	value := r.Header.Get(rest.LeaderLockHeader)
	if value == "" || !isWrite(r.Method) {
		return r, nil
	}
	ref, err := leaderelection.ParseLockRef(value)
	if err != nil {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("header %s: %v", rest.LeaderLockHeader, err))
	}
	if ref.Group != coordinationv1.GroupName || ref.Resource != "leases" || rt.leases == nil {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("header %s: the lock must be a leases.%s object, not %s.%s",
			rest.LeaderLockHeader, coordinationv1.GroupName, ref.Resource, ref.Group))
	}
	gr := meta.GroupResource{Group: info.APIGroup, Resource: info.Resource}
	check := func(obj meta.Object) error {
		why := leaseRefusal(obj, ref, time.Now())
		if why == "" {
			return nil
		}
		return apierrors.NewNotLeader(gr, info.Name, ref.Object(), why)
	}
	f := rt.leases.Fence(ref.Namespace, ref.Name, check)
	return r.WithContext(storage.WithFence(r.Context(), f)), nil
}

// leaseRefusal says why the Lease obj (nil: missing) does not show ref's
// holder leading at now, or "" when it does.
func leaseRefusal(obj meta.Object, ref leaderelection.LockRef, now time.Time) string {
	l, ok := obj.(*coordinationv1.Lease)
	if !ok || l == nil {
		return "the lease does not exist"
	}
	s := l.Spec
	holder := deref(s.HolderIdentity)
	transitions := deref(s.LeaseTransitions)
	switch {
	case holder == "":
		return fmt.Sprintf("the lease has no holder; the request names %q", ref.Holder)
	case holder != ref.Holder:
		return fmt.Sprintf("the lease is held by %q, not by %q", holder, ref.Holder)
	case transitions != ref.Transitions:
		return fmt.Sprintf("the lease is at transition %d, the request names transition %d of %q", transitions, ref.Transitions, holder)
	case s.RenewTime == nil || s.LeaseDurationSeconds == nil:
		return fmt.Sprintf("the lease of %q has no renew time or duration", holder)
	}
	expiry := s.RenewTime.Add(time.Duration(*s.LeaseDurationSeconds) * time.Second)
	if !now.Before(expiry) {
		return fmt.Sprintf("the lease of %q expired at %s (renewed at %s for %ds)", holder,
			expiry.UTC().Format(time.RFC3339Nano), s.RenewTime.UTC().Format(time.RFC3339Nano), *s.LeaseDurationSeconds)
	}
	return ""
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

func isWrite(method string) bool {
	switch method {
	case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		return true
	}
	return false
}

// leaseStore finds the store of coordination.platform.io leases, nil when
// none is served.
func leaseStore(stores map[meta.GroupVersion]map[string]*registry.Store) *registry.Store {
	for gv, byName := range stores {
		if gv.Group == coordinationv1.GroupName {
			if s := byName["leases"]; s != nil && registry.StorageResource(s.Resource) == s.Resource {
				return s
			}
		}
	}
	return nil
}
