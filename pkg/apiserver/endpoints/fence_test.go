package endpoints

import (
	"strings"
	"testing"
	"time"

	coordinationv1 "platform.io/client/api/coordination/v1"
	"platform.io/client/api/meta"
	"platform.io/client/leaderelection"
)

func TestLeaseRefusal(t *testing.T) {
	now := time.Date(2026, 11, 27, 1, 0, 0, 0, time.UTC)
	lease := func(holder string, transitions int32, renewed time.Time, seconds int32) *coordinationv1.Lease {
		l := &coordinationv1.Lease{}
		if holder != "" {
			l.Spec.HolderIdentity = &holder
		}
		l.Spec.LeaseTransitions = &transitions
		l.Spec.RenewTime = &meta.MicroTime{Time: renewed}
		l.Spec.LeaseDurationSeconds = &seconds
		return l
	}
	ref := leaderelection.LockRef{Group: "coordination.platform.io", Resource: "leases", Namespace: "ns", Name: "n", Holder: "a", Transitions: 2}
	noTransitions := lease("a", 0, now, 15)
	noTransitions.Spec.LeaseTransitions = nil
	for _, tc := range []struct {
		name string
		obj  meta.Object
		ref  leaderelection.LockRef
		want string // part of the refusal; "" to accept
	}{
		{"held", lease("a", 2, now.Add(-5*time.Second), 15), ref, ""},
		{"just before expiry", lease("a", 2, now.Add(-15*time.Second+time.Microsecond), 15), ref, ""},
		{"at expiry", lease("a", 2, now.Add(-15*time.Second), 15), ref, "expired"},
		{"other holder", lease("b", 2, now, 15), ref, `held by "b", not by "a"`},
		{"released", lease("", 2, now, 15), ref, "no holder"},
		{"stale transitions", lease("a", 3, now, 15), ref, "transition 3, the request names transition 2"},
		{"missing", nil, ref, "does not exist"},
		{"unset transitions are 0", noTransitions, leaderelection.LockRef{Holder: "a"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var obj meta.Object
			if tc.obj != nil {
				obj = tc.obj
			}
			got := leaseRefusal(obj, tc.ref, now)
			if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
				t.Fatalf("leaseRefusal = %q, want %q", got, tc.want)
			}
		})
	}
}
