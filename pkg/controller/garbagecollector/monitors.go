package garbagecollector

import (
	"cmp"
	"context"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"

	"platform.io/client/api/meta"
	"platform.io/client/client"
	"platform.io/client/discovery"
	"platform.io/client/informer"
)

// monitor is the collector's watch of one resource.
type monitor struct {
	gk  groupKind
	reg *informer.Registration
	// cancel stops an informer of the collector's own; nil for a shared one.
	cancel context.CancelFunc
}

// monitors keeps one watch per resource discovery lists as watchable, and
// the catalog of every discovered kind. Discovery is the one thing that
// decides what is watched; a resource with a typed client is watched
// through the process's shared informer (protobuf, one watch for every
// loop), any other through a metadata informer of the collector's own.
type monitors struct {
	lg    *zap.Logger
	typed map[meta.GroupResource]ops
	dyn   *client.Dynamic
	cat   *catalog
	g     *graph

	mu      sync.Mutex
	running map[meta.GroupResource]*monitor // mu guards running
	// wg tracks the informers of the collector's own.
	wg sync.WaitGroup
}

// sync makes the catalog and the monitors those of snap: it starts a
// monitor for every new watchable resource and stops those of resources no
// longer served, whose objects then leave the graph as the workers find
// their kind gone. It returns the monitors started and the resources
// dropped.
func (m *monitors) sync(ctx context.Context, snap discovery.Snapshot) (added []*monitor, dropped []meta.GroupResource) {
	byGK := map[groupKind]ops{}
	want := map[meta.GroupResource]ops{}
	for _, r := range snap.Preferred() {
		if !r.Supports(discovery.VerbGet) {
			continue // virtual resources hold no objects
		}
		o, typed := m.typed[r.GroupResource()]
		if !typed {
			o = metadataOps(m.dyn, r, m.informerError)
		}
		byGK[groupKind{r.Group, r.Kind}] = o
		if watchable(r) {
			want[r.GroupResource()] = o
		}
	}
	m.cat.replace(byGK)
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, gr := range slices.SortedFunc(maps.Keys(want), compareGR) {
		if _, ok := m.running[gr]; ok {
			continue
		}
		if mon := m.start(ctx, want[gr]); mon != nil {
			m.running[gr] = mon
			added = append(added, mon)
		}
	}
	for gr, mon := range m.running {
		if _, ok := want[gr]; ok {
			continue
		}
		mon.reg.Remove()
		if mon.cancel != nil {
			mon.cancel()
		}
		delete(m.running, gr)
		m.g.forgetKind(mon.gk)
		dropped = append(dropped, gr)
	}
	return added, dropped
}

// start runs the monitor of o's resource; nil when its informer cannot
// take a handler (it is retried at the next sync).
func (m *monitors) start(ctx context.Context, o ops) *monitor {
	mon := &monitor{gk: groupKind{meta.ParseGroupVersion(o.info.APIVersion).Group, o.info.Kind}}
	ictx := ctx
	if !o.shared {
		ictx, mon.cancel = context.WithCancel(ctx)
	}
	reg, run, err := o.inform(ictx, m.g.process)
	if err != nil {
		if mon.cancel != nil {
			mon.cancel()
		}
		m.lg.Warn("cannot watch a resource; retrying at the next discovery", zap.String("resource", o.gr.String()), zap.Error(err))
		return nil
	}
	mon.reg = reg
	if run != nil {
		m.wg.Go(func() { run(ictx) })
	}
	return mon
}

// wait returns once the informers of the collector's own have stopped;
// end the context they run under first.
func (m *monitors) wait() { m.wg.Wait() }

func (m *monitors) informerError(err error) {
	m.lg.Warn("garbage collector monitor list or watch failed; retrying", zap.Error(err))
}

func compareGR(a, b meta.GroupResource) int {
	return cmp.Or(strings.Compare(a.Group, b.Group), strings.Compare(a.Resource, b.Resource))
}

// syncPoll is how often waitSynced looks at new monitors.
const syncPoll = 50 * time.Millisecond

// waitSynced waits until every monitor of mons has had its informer's
// first list, at most timeout; it reports whether they all did.
func waitSynced(ctx context.Context, mons []*monitor, timeout time.Duration) bool {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	t := time.NewTicker(syncPoll)
	defer t.Stop()
	for {
		mons = slices.DeleteFunc(mons, func(m *monitor) bool { return m.reg.HasSynced() })
		if len(mons) == 0 {
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-t.C:
		}
	}
}
