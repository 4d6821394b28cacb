package controlplane

import (
	"context"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
)

// Config says what the controller keeps.
type Config struct {
	// Self is this server's advertise address and secure port.
	Self Record
	// Lease keeps Self's record in etcd and the Endpoints in step with the
	// live records; false keeps only the Service (--endpoint-reconciler-type=none).
	Lease bool
	// TTL is how long a record outlives its last renewal; it is renewed
	// every two thirds of it.
	TTL time.Duration
	// EtcdPrefix is the API server's etcd key prefix.
	EtcdPrefix string
}

// Controller keeps the platform Service, this server's record and the
// Endpoints.
type Controller struct {
	lg        *zap.Logger
	etcd      *clientv3.Client
	services  objectStore
	endpoints objectStore
	cfg       Config
	leases    *leases
}

// New returns a controller writing through the services and endpoints
// stores, keeping records in etcd.
func New(lg *zap.Logger, etcd *clientv3.Client, services, endpoints objectStore, cfg Config) *Controller {
	return &Controller{
		lg: lg, etcd: etcd, services: services, endpoints: endpoints, cfg: cfg,
		leases: &leases{etcd: etcd, prefix: LeasePrefix(cfg.EtcdPrefix), ttl: cfg.TTL, self: cfg.Self},
	}
}

// Run keeps the Service and, with Lease, renews this server's record and
// rewrites the Endpoints on every renewal and whenever a record appears or
// goes, until ctx ends. It does not remove the record: RemoveSelf does, after
// Run has returned.
func (c *Controller) Run(ctx context.Context) {
	var changes <-chan struct{}
	if c.cfg.Lease {
		changes = c.watchRecords(ctx)
	}
	t := time.NewTicker(c.cfg.TTL * 2 / 3)
	defer t.Stop()
	renew := true
	for {
		if err := ensureService(ctx, c.services, c.cfg.Self.Port); err != nil && ctx.Err() == nil {
			c.lg.Warn("cannot keep the platform service", zap.Error(err))
		}
		if c.cfg.Lease {
			c.sync(ctx, renew)
		}
		renew = false
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			renew = true
		case <-changes:
		}
	}
}

// sync renews the record when asked, then writes the Endpoints.
func (c *Controller) sync(ctx context.Context, renew bool) {
	if renew {
		if err := c.leases.renew(ctx); err != nil {
			if ctx.Err() == nil {
				c.lg.Warn("cannot renew this server's endpoint record", zap.Error(err))
			}
			return
		}
	}
	if err := c.reconcile(ctx); err != nil && ctx.Err() == nil {
		c.lg.Warn("cannot reconcile the platform endpoints", zap.Error(err))
	}
}

// reconcile lists the live records and writes them to the Endpoints.
func (c *Controller) reconcile(ctx context.Context) error {
	records, err := c.leases.list(ctx)
	if err != nil {
		return err
	}
	return writeEndpoints(ctx, c.endpoints, subsets(records))
}

// RemoveSelf deletes this server's record and rewrites the Endpoints
// without it. Call it once Run has returned, on a graceful shutdown.
func (c *Controller) RemoveSelf(ctx context.Context) error {
	if !c.cfg.Lease {
		return nil
	}
	if err := c.leases.remove(ctx); err != nil {
		return err
	}
	return c.reconcile(ctx)
}

// watchRecords signals (coalesced) each change of the records, so a
// record that expires or is removed leaves the Endpoints at once. A broken
// watch is started again after a second; the renewal ticks cover the gap.
func (c *Controller) watchRecords(ctx context.Context) <-chan struct{} {
	ch := make(chan struct{}, 1)
	go func() {
		for ctx.Err() == nil {
			for resp := range c.etcd.Watch(clientv3.WithRequireLeader(ctx), c.leases.prefix, clientv3.WithPrefix()) {
				if resp.Err() != nil {
					break
				}
				select {
				case ch <- struct{}{}:
				default:
				}
			}
			select {
			case <-ctx.Done():
			case <-time.After(time.Second):
			}
		}
	}()
	return ch
}
