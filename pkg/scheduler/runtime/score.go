package runtime

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
)

// RunPreScorePlugins runs the pre-scores over the feasible nodes; a
// plugin returning Skip has its score skipped this cycle.
func (f *Framework) RunPreScorePlugins(ctx context.Context, state *framework.CycleState, pod *corev1.Pod, nodes []*framework.NodeInfo) (st *framework.Status) {
	start := time.Now()
	defer func() { f.observe(PreScore, start, st) }()
	skip := map[string]bool{}
	for _, pl := range f.preScore {
		t := time.Now()
		s := pl.PreScore(ctx, state, pod, nodes)
		f.observePlugin(ctx, pl.Name(), PreScore, t, s)
		if s.IsSkip() {
			skip[pl.Name()] = true
			continue
		}
		if !s.IsSuccess() {
			return pluginError(PreScore, pl.Name(), s)
		}
	}
	state.SkipScorePlugins = skip
	return nil
}

// RunScorePlugins scores the feasible nodes with every score plugin (in
// parallel over nodes), normalizes each plugin's scores, checks they are
// within [MinNodeScore, MaxNodeScore], and returns each node's weighted
// total in the order of nodes.
func (f *Framework) RunScorePlugins(ctx context.Context, state *framework.CycleState, pod *corev1.Pod, nodes []*framework.NodeInfo) (totals []int64, st *framework.Status) {
	start := time.Now()
	defer func() { f.observe(Score, start, st) }()
	var active []scorePlugin
	var obs []prometheus.Observer
	for i, pl := range f.score {
		if !state.SkipScorePlugins[pl.Name()] {
			active = append(active, pl)
			obs = append(obs, f.scoreObs[i])
		}
	}
	buf := f.scoreBuffer(len(active), len(nodes))
	defer f.scoreBuffers.Put(buf)
	scores := buf.lists
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var once sync.Once
	var failed *framework.Status
	fail := func(s *framework.Status) { once.Do(func() { failed = s; cancel() }) }
	f.Parallelize(ctx, len(nodes), func(n int) {
		ni := nodes[n]
		name := ni.Node().Name
		rec := timedNode(ctx, true)
		for i, pl := range active {
			var t time.Time
			if rec {
				t = time.Now()
			}
			v, s := pl.Score(ctx, state, pod, ni)
			if rec {
				f.observeHot(obs[i], pl.Name(), Score, s, t)
			}
			if !s.IsSuccess() {
				fail(pluginError(Score, pl.Name(), s))
				return
			}
			scores[i][n] = framework.NodeScore{Name: name, Score: v}
		}
	})
	if failed != nil {
		return nil, failed
	}
	for i, pl := range active {
		if ext := pl.ScoreExtensions(); ext != nil {
			if s := ext.NormalizeScore(ctx, state, pod, scores[i]); !s.IsSuccess() {
				return nil, pluginError("NormalizeScore", pl.Name(), s)
			}
		}
	}
	totals = make([]int64, len(nodes))
	for i, pl := range active {
		for n, ns := range scores[i] {
			if ns.Score < framework.MinNodeScore || ns.Score > framework.MaxNodeScore {
				return nil, framework.AsStatus(fmt.Errorf("plugin %q returns an invalid score %d for node %q, it should be in the range [%d, %d] after normalizing",
					pl.Name(), ns.Score, ns.Name, framework.MinNodeScore, framework.MaxNodeScore)).WithPlugin(pl.Name())
			}
			totals[n] += ns.Score * pl.weight
		}
	}
	return totals, nil
}

// scoreBuffer holds one cycle's per-plugin score lists; they are reused
// across cycles, since a cycle of a large cluster scores hundreds of nodes
// with every plugin.
type scoreBuffer struct{ lists []framework.NodeScoreList }

func (f *Framework) scoreBuffer(plugins, nodes int) *scoreBuffer {
	b, ok := f.scoreBuffers.Get().(*scoreBuffer)
	if !ok {
		b = &scoreBuffer{}
	}
	for len(b.lists) < plugins {
		b.lists = append(b.lists, nil)
	}
	b.lists = b.lists[:plugins]
	for i := range b.lists {
		if cap(b.lists[i]) < nodes {
			b.lists[i] = make(framework.NodeScoreList, nodes)
		}
		b.lists[i] = b.lists[i][:nodes]
	}
	return b
}

// RunReservePluginsReserve runs Reserve in order; on a failure the caller
// runs Unreserve.
func (f *Framework) RunReservePluginsReserve(ctx context.Context, state *framework.CycleState, pod *corev1.Pod, node string) (st *framework.Status) {
	start := time.Now()
	defer func() { f.observe(Reserve, start, st) }()
	return runInOrder(ctx, f, Reserve, f.reserve, func(pl framework.ReservePlugin) *framework.Status {
		return pl.Reserve(ctx, state, pod, node)
	})
}

// RunReservePluginsUnreserve runs Unreserve in reverse order.
func (f *Framework) RunReservePluginsUnreserve(ctx context.Context, state *framework.CycleState, pod *corev1.Pod, node string) {
	start := time.Now()
	defer func() { f.observe(Unreserve, start, nil) }()
	for i := len(f.reserve) - 1; i >= 0; i-- {
		f.reserve[i].Unreserve(ctx, state, pod, node)
	}
}
