package etcd3

import (
	"context"
	"errors"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"platform.io/platform/pkg/apiserver/storage/etcdtest"
)

// fakeLease grants numbered leases and records the TTLs asked for.
type fakeLease struct {
	clientv3.Lease
	asked []int64
	err   error
}

func (f *fakeLease) Grant(_ context.Context, ttl int64) (*clientv3.LeaseGrantResponse, error) {
	if f.err != nil {
		return nil, f.err
	}
	f.asked = append(f.asked, ttl)
	return &clientv3.LeaseGrantResponse{ID: clientv3.LeaseID(len(f.asked)), TTL: ttl}, nil
}

// TestLeaseReuse checks which puts share a lease: those within the reuse
// window of the same ttl, up to maxPerLease of them.
func TestLeaseReuse(t *testing.T) {
	type call struct {
		after time.Duration // since the start
		ttl   int64
		want  clientv3.LeaseID
	}
	tests := []struct {
		name   string
		calls  []call
		forget clientv3.LeaseID // forgotten before the last call
		asked  []int64
	}{
		{"an hour's ttl shares a lease for a minute", []call{{0, 3600, 1}, {time.Second, 3600, 1}, {60 * time.Second, 3600, 1}, {61 * time.Second, 3600, 2}}, 0, []int64{3660, 3660}},
		{"5% of a short ttl", []call{{0, 100, 1}, {5 * time.Second, 100, 1}, {6 * time.Second, 100, 2}}, 0, []int64{105, 105}},
		{"a ttl under 20s is shared only at the same instant", []call{{0, 10, 1}, {0, 10, 1}, {time.Second, 10, 2}}, 0, []int64{10, 10}},
		{"another ttl", []call{{0, 3600, 1}, {0, 60, 2}, {0, 3600, 3}}, 0, []int64{3660, 63, 3660}},
		{"a forgotten lease", []call{{0, 3600, 1}, {0, 3600, 2}}, 1, []int64{3660, 3660}},
		{"forgetting another lease", []call{{0, 3600, 1}, {0, 3600, 1}}, 7, []int64{3660}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Unix(1_700_000_000, 0)
			var now time.Time
			f := &fakeLease{}
			l := &leases{client: f, now: func() time.Time { return now }}
			for i, c := range tt.calls {
				if i == len(tt.calls)-1 && tt.forget != 0 {
					l.forget(tt.forget)
				}
				now = start.Add(c.after)
				id, err := l.get(context.Background(), c.ttl)
				if err != nil {
					t.Fatal(err)
				}
				if id != c.want {
					t.Errorf("call %d (ttl %d at +%v): lease %d, want %d", i+1, c.ttl, c.after, id, c.want)
				}
			}
			if len(f.asked) != len(tt.asked) {
				t.Fatalf("granted %v, want %v", f.asked, tt.asked)
			}
			for i := range f.asked {
				if f.asked[i] != tt.asked[i] {
					t.Fatalf("granted %v, want %v", f.asked, tt.asked)
				}
			}
		})
	}
}

// TestLeaseMaxPerLease checks that a lease serves at most maxPerLease puts.
func TestLeaseMaxPerLease(t *testing.T) {
	f := &fakeLease{}
	now := time.Unix(1_700_000_000, 0)
	l := &leases{client: f, now: func() time.Time { return now }}
	for i := range maxPerLease + 1 {
		id, err := l.get(context.Background(), 3600)
		if err != nil {
			t.Fatal(err)
		}
		want := clientv3.LeaseID(1)
		if i == maxPerLease {
			want = 2
		}
		if id != want {
			t.Fatalf("put %d: lease %d, want %d", i+1, id, want)
		}
	}
}

// TestLeaseGrantError checks that a failed grant is returned and leaves
// nothing to reuse.
func TestLeaseGrantError(t *testing.T) {
	f := &fakeLease{err: errors.New("no leader")}
	l := &leases{client: f, now: time.Now}
	if _, err := l.get(context.Background(), 3600); err == nil {
		t.Fatal("no error from a failed grant")
	}
	f.err = nil
	if id, err := l.get(context.Background(), 3600); err != nil || id != 1 {
		t.Fatalf("after a failed grant: lease %d, %v", id, err)
	}
}

// TestCreateWithTTL checks against etcd that objects with a ttl share one
// lease, and that a put whose lease was revoked gets a fresh one.
func TestCreateWithTTL(t *testing.T) {
	client, prefix := etcdtest.Client(t)
	s := New(zap.NewNop(), client, nil)
	ctx := context.Background()
	leaseOf := func(key string) clientv3.LeaseID {
		t.Helper()
		resp, err := client.Get(ctx, key)
		if err != nil || len(resp.Kvs) != 1 {
			t.Fatalf("get %s: %v, %d keys", key, err, len(resp.Kvs))
		}
		return clientv3.LeaseID(resp.Kvs[0].Lease)
	}
	for _, k := range []string{"a", "b", "c"} {
		if _, err := s.Create(ctx, prefix+k, []byte(k), 3600); err != nil {
			t.Fatal(err)
		}
	}
	id := leaseOf(prefix + "a")
	if id == clientv3.NoLease || leaseOf(prefix+"b") != id || leaseOf(prefix+"c") != id {
		t.Fatalf("leases %d, %d, %d: want one shared lease", id, leaseOf(prefix+"b"), leaseOf(prefix+"c"))
	}
	ttl, err := client.TimeToLive(ctx, id)
	if err != nil || ttl.GrantedTTL != 3660 {
		t.Fatalf("granted ttl %d, %v; want 3660", ttl.GrantedTTL, err)
	}
	if _, err := client.Revoke(ctx, id); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Create(ctx, prefix+"d", []byte("d"), 3600); err != nil {
		t.Fatalf("create after the lease was revoked: %v", err)
	}
	if got := leaseOf(prefix + "d"); got == id || got == clientv3.NoLease {
		t.Fatalf("lease after revocation %d (revoked %d)", got, id)
	}
	if _, err := s.Create(ctx, prefix+"e", []byte("e"), 0); err != nil {
		t.Fatal(err)
	}
	if got := leaseOf(prefix + "e"); got != clientv3.NoLease {
		t.Fatalf("an object without ttl got lease %d", got)
	}
	t.Cleanup(func() { client.Revoke(context.Background(), leaseOf(prefix+"d")) })
}
