package storage

import "context"

// Fence is a precondition on another key that a write must meet in the
// same transaction: a stale leader's writes are refused by checking the
// leader's Lease beside them. The store reads Key, calls Check with its
// state, and writes only if Key still has the revision that was checked;
// when Key changed in between (the lease was renewed), it reads and checks
// again, at most FenceRetries times, then fails with ErrConflict.
type Fence struct {
	// Key is the guarding key.
	Key string
	// Check accepts Key's current state (a nil Value when absent) or
	// returns the error the write fails with, unchanged.
	Check func(current KV) error
	// Guess, when set, returns a recent state of Key (from a cache), to
	// check instead of reading Key first. The transaction's compare proves
	// an accepted guess current; a refused guess is checked again on a
	// fresh read, so a lagging cache never refuses a write by itself.
	Guess func() (KV, bool)
}

// FenceRetries bounds the re-checks of a Fence whose key keeps changing
// during one write.
const FenceRetries = 5

type fenceKey struct{}

// WithFence returns ctx carrying f: every Create, GuaranteedUpdate and
// Delete made with it is fenced by f. Reads ignore it.
func WithFence(ctx context.Context, f Fence) context.Context {
	return context.WithValue(ctx, fenceKey{}, f)
}

// FenceFrom returns the Fence ctx carries, if any.
func FenceFrom(ctx context.Context) (Fence, bool) {
	f, ok := ctx.Value(fenceKey{}).(Fence)
	return f, ok && f.Check != nil
}
