package controlplane

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// LeasePrefix is where the records live under the etcd prefix, as upstream
// keeps them: <prefix>/masterleases/<ip>.
func LeasePrefix(etcdPrefix string) string {
	return strings.TrimRight(etcdPrefix, "/") + "/masterleases/"
}

// leases keeps this server's record in etcd, attached to an etcd lease of
// ttl that renew keeps alive; when the server stops renewing, etcd deletes
// the record once the ttl has passed.
type leases struct {
	etcd   *clientv3.Client
	prefix string
	ttl    time.Duration
	self   Record
	// mu guards id.
	mu sync.Mutex
	// id is the etcd lease of the record, 0 before the first renew.
	id clientv3.LeaseID
}

func (l *leases) key() string { return l.prefix + l.self.IP }

// renew extends the record's lease, granting a new one when it expired, and
// writes the record when it is missing or not attached to that lease.
func (l *leases) renew(ctx context.Context) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.id != 0 {
		_, err := l.etcd.KeepAliveOnce(ctx, l.id)
		if errors.Is(err, rpctypes.ErrLeaseNotFound) {
			l.id = 0
		} else if err != nil {
			return fmt.Errorf("controlplane: renew the lease of %s: %w", l.key(), err)
		}
	}
	if l.id == 0 {
		g, err := l.etcd.Grant(ctx, int64(l.ttl/time.Second))
		if err != nil {
			return fmt.Errorf("controlplane: grant a lease for %s: %w", l.key(), err)
		}
		l.id = g.ID
	}
	value, err := json.Marshal(l.self)
	if err != nil {
		return err
	}
	key := l.key()
	_, err = l.etcd.Txn(ctx).
		If(clientv3.Compare(clientv3.LeaseValue(key), "=", l.id), clientv3.Compare(clientv3.Value(key), "=", string(value))).
		Else(clientv3.OpPut(key, string(value), clientv3.WithLease(l.id))).
		Commit()
	if err != nil {
		return fmt.Errorf("controlplane: write %s: %w", key, err)
	}
	return nil
}

// remove revokes the lease, which deletes the record at once.
func (l *leases) remove(ctx context.Context) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.id == 0 {
		return nil
	}
	_, err := l.etcd.Revoke(ctx, l.id)
	if err != nil && !errors.Is(err, rpctypes.ErrLeaseNotFound) {
		return fmt.Errorf("controlplane: revoke the lease of %s: %w", l.key(), err)
	}
	l.id = 0
	return nil
}

// list returns the live records; ones that do not decode are skipped.
func (l *leases) list(ctx context.Context) ([]Record, error) {
	resp, err := l.etcd.Get(ctx, l.prefix, clientv3.WithPrefix())
	if err != nil {
		return nil, fmt.Errorf("controlplane: list %s: %w", l.prefix, err)
	}
	var out []Record
	for _, kv := range resp.Kvs {
		var r Record
		if json.Unmarshal(kv.Value, &r) == nil && r.IP != "" && r.Port > 0 {
			out = append(out, r)
		}
	}
	return out, nil
}
