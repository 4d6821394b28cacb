package etcd3

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.etcd.io/etcd/api/v3/etcdserverpb"
	"go.etcd.io/etcd/api/v3/mvccpb"
	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"platform.io/platform/pkg/apiserver/storage"
)

// pageSize is how many keys a filtered list reads from etcd per round trip.
const pageSize = 500

// Store is a storage.Interface backed by an etcd client.
type Store struct {
	lg      *zap.Logger
	client  *clientv3.Client
	latency *prometheus.HistogramVec
	// leases attaches keys with a time to live to shared etcd leases.
	leases *leases
	// trustProgress is set by ProgressNotifyReliable when etcd orders
	// progress notifications; watchers then honour RequestProgress.
	trustProgress atomic.Bool
}

var _ storage.Interface = (*Store)(nil)

// New returns a Store over client. Latencies go to reg under
// storage_operation_duration_seconds{operation}.
func New(lg *zap.Logger, client *clientv3.Client, reg prometheus.Registerer) *Store {
	s := &Store{
		lg:     lg,
		client: client,
		leases: &leases{client: client, now: time.Now},
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "storage_operation_duration_seconds",
			Help:    "Latency of storage operations against etcd, by operation.",
			Buckets: prometheus.ExponentialBuckets(0.0005, 2, 15),
		}, []string{"operation"}),
	}
	if reg != nil {
		reg.MustRegister(s.latency)
	}
	return s
}

func (s *Store) observe(op string, start time.Time) {
	s.latency.WithLabelValues(op).Observe(time.Since(start).Seconds())
}

// Create implements storage.Interface.
func (s *Store) Create(ctx context.Context, key string, value []byte, ttl int64) (storage.KV, error) {
	defer s.observe("create", time.Now())
	fence, err := s.checkFence(ctx)
	if err != nil {
		return storage.KV{}, err
	}
	for {
		resp, err := s.putIfRevision(ctx, key, ttl, 0, value, fence)
		if err != nil {
			return storage.KV{}, err
		}
		if resp.Succeeded {
			return storage.KV{Key: key, Value: value, Revision: resp.Header.Revision}, nil
		}
		if again, err := fence.moved(resp); err != nil {
			return storage.KV{}, err
		} else if !again {
			return storage.KV{}, storage.NewAlreadyExists(key, 0)
		}
	}
}

// Get implements storage.Interface.
func (s *Store) Get(ctx context.Context, key string) (storage.KV, error) {
	defer s.observe("get", time.Now())
	resp, err := s.client.Get(ctx, key)
	if err != nil {
		return storage.KV{}, translate(err, key)
	}
	if len(resp.Kvs) == 0 {
		return storage.KV{}, storage.NewNotFound(key)
	}
	return toKV(resp.Kvs[0]), nil
}

// List implements storage.Interface. With a filter it keeps reading pages at
// one revision until Limit items passed it or the range is exhausted.
func (s *Store) List(ctx context.Context, prefix string, opts storage.ListOptions) (storage.ListResult, error) {
	defer s.observe("list", time.Now())
	start := prefix
	if opts.StartKey != "" {
		start = opts.StartKey
	}
	end := clientv3.GetPrefixRangeEnd(prefix)
	res := storage.ListResult{Revision: opts.Revision, Remaining: -1}
	for {
		batch := opts.Limit
		filtered := !opts.Predicate.Empty()
		if filtered && opts.Limit > 0 {
			batch = max(pageSize, opts.Limit-int64(len(res.Items)))
		}
		getOpts := []clientv3.OpOption{clientv3.WithRange(end)}
		if batch > 0 {
			getOpts = append(getOpts, clientv3.WithLimit(batch))
		}
		if res.Revision > 0 {
			getOpts = append(getOpts, clientv3.WithRev(res.Revision))
		}
		resp, err := s.client.Get(ctx, start, getOpts...)
		if err != nil {
			return storage.ListResult{}, translateRev(err, prefix, res.Revision)
		}
		if res.Revision == 0 {
			res.Revision = resp.Header.Revision
		}
		for i, kv := range resp.Kvs {
			item := toKV(kv)
			if filtered {
				ok, err := opts.Predicate.Matches(item.Key, item.Value)
				if err != nil {
					return storage.ListResult{}, err
				}
				if !ok {
					continue
				}
			}
			res.Items = append(res.Items, item)
			if opts.Limit > 0 && int64(len(res.Items)) == opts.Limit {
				left := int64(len(resp.Kvs) - i - 1)
				if left > 0 || resp.More {
					res.More, res.NextKey = true, string(kv.Key)+"\x00"
					if !filtered {
						res.Remaining = resp.Count - int64(i+1)
					}
				}
				return res, nil
			}
		}
		if !resp.More || len(resp.Kvs) == 0 {
			if !filtered {
				res.Remaining = 0
			}
			return res, nil
		}
		start = string(resp.Kvs[len(resp.Kvs)-1].Key) + "\x00"
	}
}

// GuaranteedUpdate implements storage.Interface.
func (s *Store) GuaranteedUpdate(ctx context.Context, key string, ttl int64, tryUpdate storage.UpdateFunc) (storage.KV, error) {
	return s.GuaranteedUpdateFrom(ctx, key, ttl, nil, tryUpdate)
}

// GuaranteedUpdateFrom is GuaranteedUpdate starting from a guess of the
// current state (from a cache), which saves a read when the guess is right.
// A guess that is stale costs one failed transaction, which returns the
// real state; an error of tryUpdate on a guess is retried once on a fresh read.
func (s *Store) GuaranteedUpdateFrom(ctx context.Context, key string, ttl int64, guess *storage.KV, tryUpdate storage.UpdateFunc) (storage.KV, error) {
	defer s.observe("update", time.Now())
	var current storage.KV
	if guess != nil {
		current = *guess
	} else {
		var err error
		if current, err = s.getOrAbsent(ctx, key); err != nil {
			return storage.KV{}, err
		}
	}
	fence, err := s.checkFence(ctx)
	if err != nil {
		return storage.KV{}, err
	}
	guessed := guess != nil
	for {
		value, err := tryUpdate(current)
		if err != nil && guessed {
			guessed = false
			if current, err = s.getOrAbsent(ctx, key); err != nil {
				return storage.KV{}, err
			}
			continue
		}
		if err != nil {
			return storage.KV{}, err
		}
		if value == nil {
			if guessed {
				// Only a confirmed state may be reported unchanged.
				guessed = false
				if current, err = s.getOrAbsent(ctx, key); err != nil {
					return storage.KV{}, err
				}
				continue
			}
			return current, nil
		}
		resp, err := s.putIfRevision(ctx, key, ttl, current.Revision, value, fence)
		if err != nil {
			return storage.KV{}, err
		}
		if resp.Succeeded {
			return storage.KV{Key: key, Value: value, Revision: resp.Header.Revision}, nil
		}
		if _, err := fence.moved(resp); err != nil {
			return storage.KV{}, err
		}
		current, guessed = fromElse(key, resp), false
		s.lg.Debug("update lost a race; retrying", zap.String("key", key), zap.Int64("revision", current.Revision))
	}
}

// putIfRevision writes value if key is still at rev (0: absent) and the
// fence key (if any) at its checked revision, returning the current state
// of both in the failed branch.
func (s *Store) putIfRevision(ctx context.Context, key string, ttl, rev int64, value []byte, fence *fenceGuard) (*clientv3.TxnResponse, error) {
	return s.putWithTTL(ctx, key, ttl, func(opts ...clientv3.OpOption) (*clientv3.TxnResponse, error) {
		return s.client.Txn(ctx).
			If(append([]clientv3.Cmp{clientv3.Compare(clientv3.ModRevision(key), "=", rev)}, fence.cmp()...)...).
			Then(clientv3.OpPut(key, string(value), opts...)).
			Else(append([]clientv3.Op{clientv3.OpGet(key)}, fence.elseOp()...)...).
			Commit()
	})
}

// RequestProgress asks etcd to send a progress notification on this
// store's watch streams, so caches learn the current revision when idle.
func (s *Store) RequestProgress(ctx context.Context) error {
	return s.client.RequestProgress(clientv3.WithRequireLeader(ctx))
}

// Delete implements storage.Interface.
func (s *Store) Delete(ctx context.Context, key string, check func(storage.KV) error) (storage.KV, error) {
	defer s.observe("delete", time.Now())
	current, err := s.Get(ctx, key)
	if err != nil {
		return storage.KV{}, err
	}
	fence, err := s.checkFence(ctx)
	if err != nil {
		return storage.KV{}, err
	}
	for {
		if check != nil {
			if err := check(current); err != nil {
				return storage.KV{}, err
			}
		}
		resp, err := s.client.Txn(ctx).
			If(append([]clientv3.Cmp{clientv3.Compare(clientv3.ModRevision(key), "=", current.Revision)}, fence.cmp()...)...).
			Then(clientv3.OpDelete(key)).
			Else(append([]clientv3.Op{clientv3.OpGet(key)}, fence.elseOp()...)...).
			Commit()
		if err != nil {
			return storage.KV{}, translate(err, key)
		}
		if resp.Succeeded {
			current.Revision = resp.Header.Revision
			return current, nil
		}
		if _, err := fence.moved(resp); err != nil {
			return storage.KV{}, err
		}
		current = fromElse(key, resp)
		if current.Value == nil {
			return storage.KV{}, storage.NewNotFound(key)
		}
	}
}

// CurrentRevision implements storage.Interface.
func (s *Store) CurrentRevision(ctx context.Context) (int64, error) {
	resp, err := s.client.Get(ctx, "\x00", clientv3.WithCountOnly())
	if err != nil {
		return 0, translate(err, "")
	}
	return resp.Header.Revision, nil
}

// Count implements storage.Interface.
func (s *Store) Count(ctx context.Context, prefix string) (int64, error) {
	resp, err := s.client.Get(ctx, prefix, clientv3.WithPrefix(), clientv3.WithCountOnly())
	if err != nil {
		return 0, translate(err, prefix)
	}
	return resp.Count, nil
}

func (s *Store) getOrAbsent(ctx context.Context, key string) (storage.KV, error) {
	kv, err := s.Get(ctx, key)
	if errors.Is(err, storage.ErrNotFound) {
		return storage.KV{Key: key}, nil
	}
	return kv, err
}

func fromElse(key string, resp *clientv3.TxnResponse) storage.KV {
	return fromResponse(key, resp.Responses[0])
}

// fromResponse is the state of key read by one op of a transaction.
func fromResponse(key string, op *etcdserverpb.ResponseOp) storage.KV {
	rr := op.GetResponseRange()
	if rr == nil || len(rr.Kvs) == 0 {
		return storage.KV{Key: key}
	}
	return toKV(rr.Kvs[0])
}

func toKV(kv *mvccpb.KeyValue) storage.KV {
	return storage.KV{Key: string(kv.Key), Value: kv.Value, Revision: kv.ModRevision}
}

func translate(err error, key string) error { return translateRev(err, key, 0) }

func translateRev(err error, key string, rev int64) error {
	switch {
	case errors.Is(err, rpctypes.ErrCompacted), errors.Is(err, rpctypes.ErrGRPCCompacted):
		return storage.NewExpired(key, rev)
	case errors.Is(err, rpctypes.ErrFutureRev), errors.Is(err, rpctypes.ErrGRPCFutureRev):
		return fmt.Errorf("%w: revision %d is newer than the store", storage.ErrConflict, rev)
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return fmt.Errorf("etcd3: %s: %w", key, err)
	case errors.Is(err, rpctypes.ErrNoSpace), errors.Is(err, rpctypes.ErrGRPCNoSpace):
		return fmt.Errorf("%w: %s: %v", storage.ErrNoSpace, key, err)
	case tooLarge(err):
		return fmt.Errorf("%w: %s: %v", storage.ErrTooLarge, key, err)
	default:
		return fmt.Errorf("%w: %s: %v", storage.ErrUnavailable, key, err)
	}
}

// tooLarge reports whether etcd refused a request for its size: the
// server's limit (--max-request-bytes), or the client's own limit on a
// message it sends, which gRPC reports as ResourceExhausted before sending
// (etcd's quota and rate errors share that code, so they are left out).
func tooLarge(err error) bool {
	switch {
	case errors.Is(err, rpctypes.ErrRequestTooLarge), errors.Is(err, rpctypes.ErrGRPCRequestTooLarge):
		return true
	case errors.Is(err, rpctypes.ErrNoSpace), errors.Is(err, rpctypes.ErrGRPCNoSpace),
		errors.Is(err, rpctypes.ErrTooManyRequests), errors.Is(err, rpctypes.ErrGRPCRequestTooManyRequests):
		return false
	}
	return status.Code(err) == codes.ResourceExhausted
}
