package leaderelection

import "testing"

// FuzzParseLockRef reads arbitrary fencing headers: that must never panic,
// and a header that reads must be written back by String to one that reads
// as the same lock.
func FuzzParseLockRef(f *testing.F) {
	seed := LockRef{Resource: "leases", Group: "coordination.platform.io", Namespace: "platform-system", Name: "platform-scheduler", Holder: "a_1", Transitions: 2}
	f.Add(seed.String())
	for _, s := range []string{"", "a=b", "resource=leases.x; namespace=n; name=m", "resource=%zz", "resource=a.b;resource=a.b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ref, err := ParseLockRef(s)
		if err != nil {
			return
		}
		again, err := ParseLockRef(ref.String())
		if err != nil || again != ref {
			t.Fatalf("%q reads as %+v, written as %q, which reads as %+v, %v", s, ref, ref.String(), again, err)
		}
	})
}
