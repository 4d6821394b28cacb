package leaderelection

import (
	"context"
	"errors"
	"testing"
	"time"

	"platform.io/client/rest"
)

func TestLockRefRoundTrip(t *testing.T) {
	ref := LockRef{Group: "coordination.platform.io", Resource: "leases", Namespace: "platform-system",
		Name: "platform-scheduler", Holder: "host a;b=c_1", Transitions: 7}
	s := ref.String()
	got, err := ParseLockRef(s)
	if err != nil || got != ref {
		t.Fatalf("ParseLockRef(%q) = %+v, %v; want %+v", s, got, err, ref)
	}
	if want := "leases.coordination.platform.io platform-system/platform-scheduler"; ref.Object() != want {
		t.Errorf("Object() = %q, want %q", ref.Object(), want)
	}
}

func TestParseLockRefErrors(t *testing.T) {
	good := "resource=leases.coordination.platform.io; namespace=ns; name=n; holder=h; transitions=1"
	if _, err := ParseLockRef(good); err != nil {
		t.Fatalf("good value: %v", err)
	}
	for _, s := range []string{
		"",
		"holder=h",
		"resource=leases.coordination.platform.io; namespace=ns; name=n; holder=h",
		good + "; holder=x",
		good + "; extra=1",
		"resource=leases; namespace=ns; name=n; holder=h; transitions=1",
		"resource=leases.coordination.platform.io; namespace=ns; name=n; holder=h; transitions=-1",
		"resource=leases.coordination.platform.io; namespace=ns; name=n; holder=h; transitions=x",
		"resource=leases.coordination.platform.io; namespace=ns; name=n; holder=%zz; transitions=1",
		"resource=leases.coordination.platform.io; namespace=ns; name=n; holder; transitions=1",
	} {
		if _, err := ParseLockRef(s); !errors.Is(err, ErrBadLockRef) {
			t.Errorf("ParseLockRef(%q) = %v, want ErrBadLockRef", s, err)
		}
	}
}

func TestLockRefOf(t *testing.T) {
	for _, tc := range []struct {
		kind string
		ok   bool
	}{
		{LeasesLock, true}, {EndpointsLeasesLock, true}, {ConfigMapsLeasesLock, true},
		{EndpointsLock, false}, {ConfigMapsLock, false},
	} {
		lock, err := NewLock(tc.kind, "ns", "n", "me", newFakeClient())
		if err != nil {
			t.Fatal(err)
		}
		ref, ok := LockRefOf(lock, 3)
		want := LockRef{Group: "coordination.platform.io", Resource: "leases", Namespace: "ns", Name: "n", Holder: "me", Transitions: 3}
		if ok != tc.ok || (ok && ref != want) {
			t.Errorf("%s: LockRefOf = %+v, %v; want %v (%+v)", tc.kind, ref, ok, tc.ok, want)
		}
	}
}

// TestElectorSetsFence: a leader names its term (the transitions it
// wrote) in the Fence once it leads, and not before.
func TestElectorSetsFence(t *testing.T) {
	client := newFakeClient()
	lock, err := NewLock(LeasesLock, "ns", "n", "me", client)
	if err != nil {
		t.Fatal(err)
	}
	// Another holder's record, long expired: taking it is transition 5.
	other, _ := NewLock(LeasesLock, "ns", "n", "other", client)
	if err := other.Create(context.Background(), LeaderElectionRecord{HolderIdentity: "other", LeaseDurationSeconds: 1,
		RenewTime: micro(time.Now().Add(-time.Hour)), LeaderTransitions: 4}); err != nil {
		t.Fatal(err)
	}
	fence := &rest.Fence{}
	leading := make(chan string, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	le, err := New(Config{Lock: lock, LeaseDuration: time.Second, RenewDeadline: 800 * time.Millisecond,
		RetryPeriod: 200 * time.Millisecond, Fence: fence,
		Callbacks: Callbacks{
			OnStartedLeading: func(context.Context) { leading <- fence.Value() },
			OnStoppedLeading: func() {},
		}})
	if err != nil {
		t.Fatal(err)
	}
	if v := fence.Value(); v != "" {
		t.Fatalf("fence before leading = %q", v)
	}
	done := make(chan struct{})
	go func() { defer close(done); le.Run(ctx) }()
	got := <-leading
	want := LockRef{Group: "coordination.platform.io", Resource: "leases", Namespace: "ns", Name: "n", Holder: "me", Transitions: 5}.String()
	if got != want {
		t.Fatalf("fence while leading = %q, want %q", got, want)
	}
	cancel()
	<-done
	// Stragglers after the term still name it, to be refused, not sent unfenced.
	if v := fence.Value(); v != want {
		t.Fatalf("fence after the term = %q, want %q", v, want)
	}
}
