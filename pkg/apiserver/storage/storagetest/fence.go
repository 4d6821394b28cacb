package storagetest

import (
	"context"
	"errors"
	"testing"

	"platform.io/platform/pkg/apiserver/storage"
)

// errRefused is what the suite's fences refuse with.
var errRefused = errors.New("refused by the fence")

// fenceOn returns ctx fenced by key: the write is accepted while key holds
// "held". before, when set, runs at each check, before the decision.
func fenceOn(ctx context.Context, key string, checks *int, before func(n int)) context.Context {
	return storage.WithFence(ctx, storage.Fence{Key: key, Check: func(cur storage.KV) error {
		*checks++
		if before != nil {
			before(*checks)
		}
		if string(cur.Value) != "held" {
			return errRefused
		}
		return nil
	}})
}

// runFence checks that writes honour a Fence in their transaction and
// that reads ignore it.
func runFence(t *testing.T, s storage.Interface, prefix string) {
	ctx := context.Background()
	lease := prefix + "lease"
	set := func(v string) {
		t.Helper()
		if _, err := s.GuaranteedUpdate(ctx, lease, 0, func(storage.KV) ([]byte, error) { return []byte(v), nil }); err != nil {
			t.Fatal(err)
		}
	}
	var checks int
	fenced := fenceOn(ctx, lease, &checks, nil)

	// The fence key is missing: every write is refused, nothing written.
	if _, err := s.Create(fenced, prefix+"a", []byte("1"), 0); !errors.Is(err, errRefused) {
		t.Fatalf("create with the fence key missing: %v, want the fence's refusal", err)
	}
	if _, err := s.Get(ctx, prefix+"a"); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("a refused create wrote: %v", err)
	}

	set("held")
	a, err := s.Create(fenced, prefix+"a", []byte("1"), 0)
	if err != nil {
		t.Fatalf("create under a held fence: %v", err)
	}
	if _, err := s.GuaranteedUpdate(fenced, prefix+"a", 0, func(storage.KV) ([]byte, error) { return []byte("2"), nil }); err != nil {
		t.Fatalf("update under a held fence: %v", err)
	}
	if _, err := s.Create(fenced, prefix+"a", []byte("x"), 0); !errors.Is(err, storage.ErrAlreadyExists) {
		t.Fatalf("second create under a held fence: %v, want ErrAlreadyExists", err)
	}

	set("taken")
	if _, err := s.GuaranteedUpdate(fenced, prefix+"a", 0, func(storage.KV) ([]byte, error) { return []byte("3"), nil }); !errors.Is(err, errRefused) {
		t.Fatalf("update under a taken fence: %v", err)
	}
	if _, err := s.Delete(fenced, prefix+"a", nil); !errors.Is(err, errRefused) {
		t.Fatalf("delete under a taken fence: %v", err)
	}
	if got, err := s.Get(fenced, prefix+"a"); err != nil || string(got.Value) != "2" || got.Revision <= a.Revision {
		t.Fatalf("a fenced read, or refused writes changed the value: %+v %v", got, err)
	}

	// The fence key changes between the check and the transaction: the
	// transaction's compare fails and the new state is checked. A renewal
	// (still held) lets the write through on the second check; a takeover
	// refuses it.
	set("held")
	checks = 0
	renewed := fenceOn(ctx, lease, &checks, func(n int) {
		if n == 1 {
			set("held")
		}
	})
	if _, err := s.GuaranteedUpdate(renewed, prefix+"a", 0, func(storage.KV) ([]byte, error) { return []byte("4"), nil }); err != nil || checks != 2 {
		t.Fatalf("update racing a renewal: %v after %d checks, want success after 2", err, checks)
	}
	checks = 0
	taken := fenceOn(ctx, lease, &checks, func(n int) {
		if n == 1 {
			set("taken")
		}
	})
	if _, err := s.Delete(taken, prefix+"a", nil); !errors.Is(err, errRefused) || checks != 2 {
		t.Fatalf("delete racing a takeover: %v after %d checks, want the refusal after 2", err, checks)
	}
	if _, err := s.Create(taken, prefix+"b", []byte("1"), 0); !errors.Is(err, errRefused) {
		t.Fatalf("create under a taken fence: %v", err)
	}

	// A guess (a cache's state of the fence key) is proven by the
	// transaction's compare: a stale guess that would accept is checked
	// again on the real state, and a stale guess that would refuse is read
	// again before refusing.
	heldKV, err := s.Get(ctx, lease)
	if err != nil {
		t.Fatal(err)
	}
	set("taken")
	checks = 0
	staleHeld := storage.WithFence(ctx, storage.Fence{Key: lease,
		Check: func(cur storage.KV) error {
			checks++
			if string(cur.Value) != "held" {
				return errRefused
			}
			return nil
		},
		Guess: func() (storage.KV, bool) { return heldKV, true },
	})
	if _, err := s.Create(staleHeld, prefix+"d", []byte("1"), 0); !errors.Is(err, errRefused) || checks != 2 {
		t.Fatalf("create on a stale guess that the lease is held: %v after %d checks, want the refusal after 2", err, checks)
	}
	takenKV, err := s.Get(ctx, lease)
	if err != nil {
		t.Fatal(err)
	}
	set("held")
	checks = 0
	staleTaken := storage.WithFence(ctx, storage.Fence{Key: lease,
		Check: func(cur storage.KV) error {
			checks++
			if string(cur.Value) != "held" {
				return errRefused
			}
			return nil
		},
		Guess: func() (storage.KV, bool) { return takenKV, true },
	})
	if _, err := s.Create(staleTaken, prefix+"d", []byte("1"), 0); err != nil || checks != 2 {
		t.Fatalf("create on a stale guess that the lease is taken: %v after %d checks, want success after 2", err, checks)
	}

	// A fence key that changes at every check ends the write in a conflict.
	set("held")
	checks = 0
	churn := fenceOn(ctx, lease, &checks, func(int) { set("held") })
	if _, err := s.Create(churn, prefix+"c", []byte("1"), 0); !errors.Is(err, storage.ErrConflict) || checks != storage.FenceRetries+1 {
		t.Fatalf("create under a churning fence: %v after %d checks, want ErrConflict after %d", err, checks, storage.FenceRetries+1)
	}
	if got, err := s.Get(ctx, prefix+"a"); err != nil || string(got.Value) != "4" {
		t.Fatalf("after the fenced writes: %+v %v, want 4", got, err)
	}
}
