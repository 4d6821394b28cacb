package etcd3

import (
	"context"
	"errors"
	"sync"
	"time"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// Objects with a time to live (events) are attached to etcd leases. A
// grant is a consensus write of its own and etcd tracks every lease until
// it expires, so granting one per object doubles the cost of writing an
// event and leaves etcd with a lease per event. leases hands out one lease
// to every put in a short window instead, as upstream's API server does:
// a lease granted for ttl+reuse seconds serves puts asking for ttl while
// it still outlives them by at least ttl and by at most ttl+reuse, so an
// object lives between its ttl and ttl+reuse, and for at most
// maxPerLease objects, so a revocation stays a bounded amount of work.
// The reuse window is 5% of the ttl in whole seconds, at most a minute: an
// event of the default 1h ttl may live a minute longer, and ttls under 20
// seconds share a lease only between puts of the same instant.
const (
	// maxLeaseReuseSeconds bounds the reuse window.
	maxLeaseReuseSeconds = 60
	// leaseReusePercent of the ttl is the reuse window of shorter ttls.
	leaseReusePercent = 5
	// maxPerLease is how many puts one lease serves.
	maxPerLease = 1000
)

// leases grants and reuses leases; it is safe for concurrent use.
type leases struct {
	client clientv3.Lease
	now    func() time.Time

	mu sync.Mutex
	// id is the lease handed out last, expires when it runs out by the
	// local clock (measured from before the grant, so never later than
	// etcd's own), and used how many puts it has served.
	id      clientv3.LeaseID
	expires time.Time
	used    int
}

// reuseSeconds is how much longer than ttl seconds an object may live.
func reuseSeconds(ttl int64) int64 {
	return min(ttl*leaseReusePercent/100, maxLeaseReuseSeconds)
}

// get returns a lease that expires between ttl and ttl+reuseSeconds(ttl)
// seconds from now, granting one when the last one does not fit.
func (l *leases) get(ctx context.Context, ttl int64) (clientv3.LeaseID, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now, longest := l.now(), ttl+reuseSeconds(ttl)
	if l.id != clientv3.NoLease && l.used < maxPerLease &&
		!l.expires.Before(now.Add(seconds(ttl))) && !l.expires.After(now.Add(seconds(longest))) {
		l.used++
		return l.id, nil
	}
	resp, err := l.client.Grant(ctx, longest)
	if err != nil {
		return clientv3.NoLease, err
	}
	l.id, l.expires, l.used = resp.ID, now.Add(seconds(resp.TTL)), 1
	return l.id, nil
}

func seconds(n int64) time.Duration { return time.Duration(n) * time.Second }

// forget drops id if it is the lease handed out, after etcd reported it
// gone (revoked by hand, or expired while etcd had no leader).
func (l *leases) forget(id clientv3.LeaseID) {
	l.mu.Lock()
	if l.id == id {
		l.id = clientv3.NoLease
	}
	l.mu.Unlock()
}

// putWithTTL runs put with the options that attach a key to a lease of
// ttl seconds (none when ttl <= 0). If etcd no longer knows the lease, it
// is forgotten and put runs once more with a fresh one.
func (s *Store) putWithTTL(ctx context.Context, key string, ttl int64, put func(opts ...clientv3.OpOption) (*clientv3.TxnResponse, error)) (*clientv3.TxnResponse, error) {
	var (
		resp *clientv3.TxnResponse
		err  error
	)
	if ttl <= 0 {
		resp, err = put()
	} else {
		for attempt := 0; attempt < 2; attempt++ {
			var id clientv3.LeaseID
			if id, err = s.leases.get(ctx, ttl); err != nil {
				break
			}
			resp, err = put(clientv3.WithLease(id))
			if !errors.Is(err, rpctypes.ErrLeaseNotFound) && !errors.Is(err, rpctypes.ErrGRPCLeaseNotFound) {
				break
			}
			s.leases.forget(id)
		}
	}
	if err != nil {
		return nil, translate(err, key)
	}
	return resp, nil
}
