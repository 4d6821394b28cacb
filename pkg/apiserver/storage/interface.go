package storage

import "context"

// KV is one stored object: its key, encoded value and the revision of its last modification.
type KV struct {
	Key      string
	Value    []byte
	Revision int64
	// Memo shares renderings of this version among readers; nil when the
	// KV did not come from a cache.
	Memo *Memo
}

// ListOptions narrows a List call.
type ListOptions struct {
	// Revision reads the range as of exactly that revision (a snapshot);
	// 0 reads the latest.
	Revision int64
	// MinRevision asks for a result at least that fresh; a cache may serve it
	// once it has caught up. 0 accepts any freshness, unless Consistent.
	MinRevision int64
	// Consistent asks for a result at least as fresh as the store's current
	// revision (a quorum read).
	Consistent bool
	// StartKey resumes a chunked list: keys below it are skipped. Empty starts at the prefix.
	StartKey string
	// Limit caps the number of returned items; 0 is unlimited.
	Limit int64
	// Predicate keeps only matching items. Limit counts kept items; the
	// range is read in pages until Limit is met.
	Predicate Predicate
}

// ListResult is one page of a range read.
type ListResult struct {
	Items []KV
	// Revision is the revision the whole page (and any later page with the same Revision) reflects.
	Revision int64
	// NextKey is the key to resume from when More is true.
	NextKey string
	More    bool
	// Remaining is the number of keys after this page when it is known (no
	// filter), or -1.
	Remaining int64
}

// UpdateFunc computes the new value of a key from its current state. current
// has a nil Value and zero Revision when the key is absent. Returning a nil
// value with a nil error means "no change"; returning an error aborts.
type UpdateFunc func(current KV) (newValue []byte, err error)

// Interface is the storage contract of the registry.
//
// Writes (Create, GuaranteedUpdate, Delete) honour a Fence carried by
// their context (WithFence): the write happens only if the fence's check
// accepts its key's state as of the same transaction; the check's error is
// returned otherwise. A Fence travels with the request's context so that
// every write made on behalf of one request is fenced, whichever layer
// makes it, and a decorator (the watch cache) passes it on unchanged.
type Interface interface {
	// Create stores value at key if the key is absent, else ErrAlreadyExists.
	// ttl > 0 attaches a lease of that many seconds.
	Create(ctx context.Context, key string, value []byte, ttl int64) (KV, error)
	// Get reads one key, or ErrNotFound.
	Get(ctx context.Context, key string) (KV, error)
	// List reads the keys under prefix, in key order.
	List(ctx context.Context, prefix string, opts ListOptions) (ListResult, error)
	// GuaranteedUpdate applies tryUpdate to the current value and writes the
	// result with a compare-and-swap on the revision, retrying with the fresh
	// value when another writer got there first.
	GuaranteedUpdate(ctx context.Context, key string, ttl int64, tryUpdate UpdateFunc) (KV, error)
	// Delete removes key if check accepts its current state (check may be nil),
	// retrying like GuaranteedUpdate; it returns the last state.
	Delete(ctx context.Context, key string, check func(current KV) error) (KV, error)
	// CurrentRevision returns the store's latest revision (a quorum read).
	CurrentRevision(ctx context.Context) (int64, error)
	// Count returns how many keys are under prefix.
	Count(ctx context.Context, prefix string) (int64, error)
}

// EventType is the kind of change an Event reports.
type EventType int

// The event types.
const (
	Added EventType = iota
	Modified
	Deleted
	// Progress says every change up to Revision has been delivered; it
	// carries no object.
	Progress
	// Error ends the stream; Err says why (ErrExpired when the start
	// revision was compacted).
	Error
)

// Event is one change to a key. For Deleted, Value is the last value
// before the delete and Revision the revision of the delete.
type Event struct {
	Type     EventType
	Key      string
	Value    []byte
	Revision int64
	// PrevValue is the value before a Modified change, when known.
	PrevValue []byte
	Err       error
	// Memo shares renderings of the event's object among all watchers;
	// nil when the event did not come from a cache.
	Memo *Memo
	// InitialEventsEnd marks the Progress event that follows the initial
	// state of a watch that asked for it (WatchOptions.InitialEventsEnd);
	// its Revision is that of the state.
	InitialEventsEnd bool
}

// WatchOptions narrow a Watch.
type WatchOptions struct {
	// Revision: deliver changes after this revision; 0 delivers changes
	// after the current revision.
	Revision int64
	// Prefix watches every key under the given key.
	Prefix bool
	// ProgressNotify asks for Progress events when idle.
	ProgressNotify bool
	// Predicate filters events, turning modifications into additions or
	// deletions as objects start or stop matching.
	Predicate Predicate
	// InitialState first sends an Added event for every existing object
	// (at the revision the watch starts from), then the changes.
	InitialState bool
	// InitialEventsEnd, with InitialState, sends a Progress event marked
	// InitialEventsEnd right after the initial state, at its revision,
	// even when ProgressNotify is off: the watch-list protocol's end of
	// the initial events.
	InitialEventsEnd bool
	// NoPrevious is for a caller that keeps the previous value of every
	// key itself (the watch cache): events then carry no PrevValue, and a
	// Deleted event no Value, which spares etcd a read of the previous
	// revision per change and halves what it sends. It cannot be combined
	// with a Predicate, which needs the previous values.
	NoPrevious bool
}

// ProgressRequester is implemented by watchers that can be asked to send a
// Progress event now, in order with the events already sent.
type ProgressRequester interface {
	RequestProgress()
}

// Watcher streams events until Stop or until the stream ends, which closes
// the channel. An ended stream's last event may be an Error.
type Watcher interface {
	ResultChan() <-chan Event
	Stop()
}

// Watchable is implemented by stores that can stream changes.
type Watchable interface {
	Watch(ctx context.Context, key string, opts WatchOptions) (Watcher, error)
}
