package leaderelection

import (
	"context"
	"testing"
	"time"

	apierrors "platform.io/client/api/errors"
)

// multiAt is the time in the records of the two-object lock tests.
func multiAt() time.Time { return time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC) }

// TestMultiLock: the two-object kinds with a primary and a Lease that may
// be missing, or disagree, as they do while clients migrate.
func TestMultiLock(t *testing.T) {
	cases := []struct {
		name string
		run  func(t *testing.T, c *fakeClient, kind, primaryKind string)
	}{
		{"missing secondary", multiMissingSecondary},
		{"holders disagree", multiHoldersDisagree},
		{"create", multiCreate},
		{"primary conflict writes nothing", multiPrimaryConflict},
	}
	for _, kind := range []string{EndpointsLeasesLock, ConfigMapsLeasesLock} {
		primaryKind := map[string]string{EndpointsLeasesLock: EndpointsLock, ConfigMapsLeasesLock: ConfigMapsLock}[kind]
		for _, tc := range cases {
			t.Run(kind+"/"+tc.name, func(t *testing.T) { tc.run(t, newFakeClient(), kind, primaryKind) })
		}
	}
}

// multiMissingSecondary: Get tolerates a missing Lease, Update creates it.
func multiMissingSecondary(t *testing.T, c *fakeClient, kind, primaryKind string) {
	ctx := context.Background()
	if err := mustLock(t, primaryKind, "old", c).Create(ctx, testRecord("old", multiAt())); err != nil {
		t.Fatal(err)
	}
	m := mustLock(t, kind, "a", c)
	rec, _, err := m.Get(ctx)
	if err != nil || rec.HolderIdentity != "old" {
		t.Fatalf("Get with no Lease: %+v, %v", rec, err)
	}
	if err := m.Update(ctx, testRecord("a", multiAt())); err != nil {
		t.Fatalf("Update creating the Lease: %v", err)
	}
	lease, _, err := mustLock(t, LeasesLock, "x", c).Get(ctx)
	if err != nil || lease.HolderIdentity != "a" {
		t.Fatalf("Lease after Update: %+v, %v", lease, err)
	}
}

// multiHoldersDisagree: objects naming different holders read as the
// unknown leader, and a change of the Lease alone is a change.
func multiHoldersDisagree(t *testing.T, c *fakeClient, kind, primaryKind string) {
	ctx := context.Background()
	leases := mustLock(t, LeasesLock, "new", c)
	if err := mustLock(t, primaryKind, "old", c).Create(ctx, testRecord("old", multiAt())); err != nil {
		t.Fatal(err)
	}
	if err := leases.Create(ctx, testRecord("new", multiAt())); err != nil {
		t.Fatal(err)
	}
	m := mustLock(t, kind, "a", c)
	rec, raw1, err := m.Get(ctx)
	if err != nil || rec.HolderIdentity != UnknownLeader {
		t.Fatalf("Get: %+v, %v; want the unknown leader", rec, err)
	}
	if err := leases.Update(ctx, testRecord("new", multiAt().Add(time.Second))); err != nil {
		t.Fatal(err)
	}
	if _, raw2, _ := m.Get(ctx); string(raw1) == string(raw2) {
		t.Error("raw bytes did not change with the Lease")
	}
}

// multiCreate: Create never takes a Lease held by another, but does take a
// released one.
func multiCreate(t *testing.T, c *fakeClient, kind, _ string) {
	ctx := context.Background()
	if err := mustLock(t, LeasesLock, "new", c).Create(ctx, testRecord("new", multiAt())); err != nil {
		t.Fatal(err)
	}
	if err := mustLock(t, kind, "a", c).Create(ctx, testRecord("a", multiAt())); err == nil {
		t.Fatal("Create took over a Lease held by another")
	}
	c2 := newFakeClient()
	if err := mustLock(t, LeasesLock, "gone", c2).Create(ctx, LeaderElectionRecord{LeaseDurationSeconds: 1}); err != nil {
		t.Fatal(err)
	}
	m := mustLock(t, kind, "a", c2)
	if err := m.Create(ctx, testRecord("a", multiAt())); err != nil {
		t.Fatalf("Create over a released Lease: %v", err)
	}
	if rec, _, err := m.Get(ctx); err != nil || rec.HolderIdentity != "a" {
		t.Fatalf("Get: %+v, %v", rec, err)
	}
}

// multiPrimaryConflict: a stale Update fails on the primary and leaves the
// Lease alone.
func multiPrimaryConflict(t *testing.T, c *fakeClient, kind, _ string) {
	ctx := context.Background()
	a, b := mustLock(t, kind, "a", c), mustLock(t, kind, "b", c)
	if err := a.Create(ctx, testRecord("a", multiAt())); err != nil {
		t.Fatal(err)
	}
	if _, _, err := b.Get(ctx); err != nil {
		t.Fatal(err)
	}
	if err := a.Update(ctx, testRecord("a", multiAt().Add(time.Second))); err != nil {
		t.Fatal(err)
	}
	if err := b.Update(ctx, testRecord("b", multiAt())); !apierrors.IsConflict(err) {
		t.Fatalf("stale Update: %v, want Conflict", err)
	}
	if rec, _, _ := mustLock(t, LeasesLock, "x", c).Get(ctx); rec.HolderIdentity != "a" {
		t.Errorf("the Lease changed hands on a failed update: %+v", rec)
	}
}
