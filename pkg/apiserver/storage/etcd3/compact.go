package etcd3

import (
	"context"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
)

// Compactor compacts etcd history on an interval, always keeping at least
// one interval of it: each tick compacts to the revision seen on the tick
// before. Several API servers share the work through a key they update
// with compare-and-swap, so only one compacts per interval.
type Compactor struct {
	lg       *zap.Logger
	client   *clientv3.Client
	key      string
	interval time.Duration
	runs     *prometheus.CounterVec
	duration prometheus.Histogram
}

// NewCompactor returns a compactor coordinating through key (for example "/registry/compact_rev_key").
func NewCompactor(lg *zap.Logger, client *clientv3.Client, key string, interval time.Duration, reg prometheus.Registerer) *Compactor {
	c := &Compactor{
		lg: lg, client: client, key: key, interval: interval,
		runs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "etcd_compactions_total",
			Help: "Compactions of etcd history requested by this API server, by result.",
		}, []string{"result"}),
		duration: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "etcd_compaction_duration_seconds",
			Help:    "Time taken by compactions of etcd history.",
			Buckets: prometheus.ExponentialBuckets(0.001, 2, 14),
		}),
	}
	if reg != nil {
		reg.MustRegister(c.runs, c.duration)
	}
	return c
}

// Run compacts until ctx ends.
func (c *Compactor) Run(ctx context.Context) {
	t := time.NewTicker(c.interval)
	defer t.Stop()
	var version, rev int64
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		var err error
		version, rev, err = c.compactOnce(ctx, version, rev)
		if err != nil {
			c.lg.Warn("etcd compaction failed", zap.Error(err))
		}
	}
}

// compactOnce records the current revision under the key if nobody else
// did since our last look, and if so compacts to the revision recorded on
// the previous tick. It returns the key's version and the recorded revision.
func (c *Compactor) compactOnce(ctx context.Context, version, prevRev int64) (int64, int64, error) {
	resp, err := c.client.Txn(ctx).
		If(clientv3.Compare(clientv3.Version(c.key), "=", version)).
		Then(clientv3.OpPut(c.key, "")).
		Else(clientv3.OpGet(c.key)).
		Commit()
	if err != nil {
		return version, prevRev, err
	}
	curRev := resp.Header.Revision
	if !resp.Succeeded {
		// Another server claimed this interval; follow its version.
		kvs := resp.Responses[0].GetResponseRange().Kvs
		if len(kvs) > 0 {
			return kvs[0].Version, curRev, nil
		}
		return 0, curRev, nil
	}
	if prevRev > 0 {
		start := time.Now()
		_, err := c.client.Compact(ctx, prevRev)
		c.duration.Observe(time.Since(start).Seconds())
		if err != nil {
			c.runs.WithLabelValues("error").Inc()
			return version + 1, curRev, err
		}
		c.runs.WithLabelValues("success").Inc()
		c.lg.Info("compacted etcd history", zap.String("revision", strconv.FormatInt(prevRev, 10)))
	}
	return version + 1, curRev, nil
}
