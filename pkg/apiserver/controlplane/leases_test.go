package controlplane

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"platform.io/platform/pkg/apiserver/storage/etcdtest"
)

// waitRecords polls the records until they are want or within passes.
func waitRecords(t *testing.T, l *leases, want []Record, within time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	for {
		got, err := l.list(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if cmp.Equal(got, want) {
			return time.Since(start)
		}
		if time.Since(start) > within {
			t.Fatalf("records %v, want %v within %v", got, want, within)
		}
		<-time.After(50 * time.Millisecond)
	}
}

// TestLeases checks on a real etcd that a renewed record stays, that a
// removed one goes at once, and that one no longer renewed goes with its
// lease and comes back with the next renewal.
func TestLeases(t *testing.T) {
	ctx := context.Background()
	c, prefix := etcdtest.Client(t)
	const ttl = 2 * time.Second
	a := &leases{etcd: c, prefix: LeasePrefix(prefix), ttl: ttl, self: Record{IP: "10.0.0.1", Port: 6443}}
	b := &leases{etcd: c, prefix: LeasePrefix(prefix), ttl: ttl, self: Record{IP: "10.0.0.2", Port: 6443}}
	for _, l := range []*leases{a, b} {
		if err := l.renew(ctx); err != nil {
			t.Fatal(err)
		}
	}
	waitRecords(t, a, []Record{a.self, b.self}, time.Second)
	rev := func() int64 {
		resp, err := c.Get(ctx, a.key())
		if err != nil {
			t.Fatal(err)
		}
		return resp.Kvs[0].ModRevision
	}
	before := rev()
	if err := a.renew(ctx); err != nil {
		t.Fatal(err)
	}
	if after := rev(); after != before {
		t.Errorf("a renewal of a live record rewrote it (revision %d -> %d)", before, after)
	}

	if err := b.remove(ctx); err != nil {
		t.Fatal(err)
	}
	waitRecords(t, a, []Record{a.self}, 200*time.Millisecond)

	took := waitRecords(t, a, nil, ttl+3*time.Second)
	t.Logf("a record no longer renewed went after %v (ttl %v)", took, ttl)
	if err := a.renew(ctx); err != nil {
		t.Fatal(err)
	}
	waitRecords(t, a, []Record{a.self}, time.Second)
}
