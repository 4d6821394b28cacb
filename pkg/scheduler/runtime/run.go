package runtime

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
)

// Extension point names, as the metrics label them.
const (
	PreFilter  = "PreFilter"
	Filter     = "Filter"
	PostFilter = "PostFilter"
	PreScore   = "PreScore"
	Score      = "Score"
	Reserve    = "Reserve"
	Unreserve  = "Unreserve"
	Permit     = "Permit"
	PreBind    = "PreBind"
	Bind       = "Bind"
	PostBind   = "PostBind"
)

type sampleKey struct{}

// maxTimedNodes bounds how many nodes' filter calls, and how many nodes'
// score calls, a sampled cycle times. Two clock reads per plugin per node
// over the thousands of nodes a large cluster's cycle filters cost a
// tenth of the cycle, for histograms a few dozen nodes fill as well; a
// cluster of up to this many nodes has all its calls timed, as before.
const maxTimedNodes = 64

// sample counts the per-node calls a sampled cycle has timed.
type sample struct{ filter, score atomic.Int32 }

// WithPluginMetrics marks ctx so that plugin calls under it record their
// duration; the scheduler samples a share of its cycles this way, since
// timing every filter call of every node costs more than it tells. Filter
// and score calls are timed for the first maxTimedNodes nodes of each.
func WithPluginMetrics(ctx context.Context) context.Context {
	return context.WithValue(ctx, sampleKey{}, new(sample))
}

func sampled(ctx context.Context) bool { return ctx.Value(sampleKey{}) != nil }

// timedNode reports whether one node's filter calls (score calls, with
// score set) are to be timed under ctx.
func timedNode(ctx context.Context, score bool) bool {
	s, ok := ctx.Value(sampleKey{}).(*sample)
	if !ok {
		return false
	}
	c := &s.filter
	if score {
		c = &s.score
	}
	return c.Add(1) <= maxTimedNodes
}

func (f *Framework) observe(point string, start time.Time, s *framework.Status) {
	f.metrics.ExtensionPoint(point, s.Code().String(), f.opts.ProfileName, time.Since(start))
}

func (f *Framework) observePlugin(ctx context.Context, name, point string, start time.Time, s *framework.Status) {
	if sampled(ctx) {
		f.metrics.Plugin(name, point, s.Code().String(), time.Since(start))
	}
}

// observeHot records a sampled call of a per-node loop through the
// plugin's pre-resolved success observer.
func (f *Framework) observeHot(obs prometheus.Observer, name, point string, s *framework.Status, start time.Time) {
	if s.IsSuccess() {
		obs.Observe(time.Since(start).Seconds())
		return
	}
	f.metrics.Plugin(name, point, s.Code().String(), time.Since(start))
}

// pluginError turns a plugin's Error status into one naming the plugin.
func pluginError(point, name string, s *framework.Status) *framework.Status {
	return framework.AsStatus(fmt.Errorf("running %s plugin %q: %w", point, name, s.AsError())).WithPlugin(name)
}

// failure is the status of a plugin that did not succeed at point: a
// rejection, naming the plugin, or else an error naming it.
func failure(point, name string, s *framework.Status) *framework.Status {
	if s.IsRejected() {
		return s.WithPlugin(name)
	}
	return pluginError(point, name, s)
}

// runInOrder runs the plugins in order, run calling one, and stops at the
// first that does not succeed; a sampled cycle records each call.
func runInOrder[P framework.Plugin](ctx context.Context, f *Framework, point string, plugins []P, run func(P) *framework.Status) *framework.Status {
	for _, pl := range plugins {
		t := time.Now()
		s := run(pl)
		f.observePlugin(ctx, pl.Name(), point, t, s)
		if !s.IsSuccess() {
			return failure(point, pl.Name(), s)
		}
	}
	return nil
}

// RunPreFilterPlugins runs the pre-filters. The results' node sets are
// intersected; a plugin returning Skip has its filter skipped this cycle.
func (f *Framework) RunPreFilterPlugins(ctx context.Context, state *framework.CycleState, pod *corev1.Pod) (res *framework.PreFilterResult, st *framework.Status) {
	start := time.Now()
	defer func() { f.observe(PreFilter, start, st) }()
	skip := map[string]bool{}
	for _, pl := range f.preFilter {
		t := time.Now()
		r, s := pl.PreFilter(ctx, state, pod)
		f.observePlugin(ctx, pl.Name(), PreFilter, t, s)
		switch {
		case s.IsSkip():
			skip[pl.Name()] = true
			continue
		case s.IsRejected():
			return nil, s.WithPlugin(pl.Name())
		case !s.IsSuccess():
			return nil, pluginError(PreFilter, pl.Name(), s)
		}
		res = mergePreFilter(res, r)
		if res != nil && res.NodeNames != nil && len(res.NodeNames) == 0 {
			return nil, framework.NewStatus(framework.UnschedulableAndUnresolvable,
				"node(s) didn't satisfy plugin(s) ["+pl.Name()+"] simultaneously").WithPlugin(pl.Name())
		}
	}
	state.SkipFilterPlugins = skip
	state.SkipFilterMask = 0
	for i, pl := range f.filter {
		if skip[pl.Name()] {
			state.SkipFilterMask |= 1 << i
		}
	}
	return res, nil
}

func mergePreFilter(a, b *framework.PreFilterResult) *framework.PreFilterResult {
	if b == nil || b.NodeNames == nil {
		return a
	}
	if a == nil || a.NodeNames == nil {
		return b
	}
	out := &framework.PreFilterResult{NodeNames: map[string]bool{}}
	for n := range a.NodeNames {
		if b.NodeNames[n] {
			out.NodeNames[n] = true
		}
	}
	return out
}

// RunFilterPlugins runs the filters on one node, stopping at the first
// that rejects it.
func (f *Framework) RunFilterPlugins(ctx context.Context, state *framework.CycleState, pod *corev1.Pod, ni *framework.NodeInfo) *framework.Status {
	rec := timedNode(ctx, false)
	skip := state.SkipFilterMask
	for i, pl := range f.filter {
		if skip&(1<<i) != 0 {
			continue
		}
		var t time.Time
		if rec {
			t = time.Now()
		}
		s := pl.Filter(ctx, state, pod, ni)
		if rec {
			f.observeHot(f.filterObs[i], pl.Name(), Filter, s, t)
		}
		if !s.IsSuccess() {
			return failure(Filter, pl.Name(), s)
		}
	}
	return nil
}

// RunFilterPluginsWithNominatedPods runs the filters as upstream does when
// pods of equal or higher priority are nominated to the node: once with
// them counted (they will take the room), and once without (their
// affinity must not be what lets this pod in). Both must pass.
func (f *Framework) RunFilterPluginsWithNominatedPods(ctx context.Context, state *framework.CycleState, pod *corev1.Pod, ni *framework.NodeInfo) *framework.Status {
	var status *framework.Status
	added := false
	for i := 0; i < 2; i++ {
		useState, useNode := state, ni
		if i == 0 {
			var err error
			added, useState, useNode, err = f.addNominatedPods(ctx, pod, state, ni)
			if err != nil {
				return framework.AsStatus(err)
			}
		} else if !added || !status.IsSuccess() {
			break
		}
		status = f.RunFilterPlugins(ctx, useState, pod, useNode)
		if !status.IsSuccess() && !status.IsRejected() {
			return status
		}
	}
	return status
}

func priorityOf(p *corev1.Pod) int32 {
	if p.Spec.Priority != nil {
		return *p.Spec.Priority
	}
	return 0
}

// addNominatedPods returns a copy of state and ni with the nominated pods
// of at least pod's priority added, or the originals when there are none.
func (f *Framework) addNominatedPods(ctx context.Context, pod *corev1.Pod, state *framework.CycleState, ni *framework.NodeInfo) (bool, *framework.CycleState, *framework.NodeInfo, error) {
	if f.opts.Nominator == nil || ni.Node() == nil {
		return false, state, ni, nil
	}
	if e, ok := f.opts.Nominator.(interface{ Empty() bool }); ok && e.Empty() {
		return false, state, ni, nil
	}
	nominated := f.opts.Nominator.NominatedPodsForNode(ni.Node().Name)
	if len(nominated) == 0 {
		return false, state, ni, nil
	}
	added := false
	var stateOut *framework.CycleState
	var niOut *framework.NodeInfo
	for _, pi := range nominated {
		if priorityOf(pi.Pod) < priorityOf(pod) || pi.Pod.UID == pod.UID {
			continue
		}
		if !added {
			stateOut, niOut, added = state.Clone(), ni.Clone(), true
		}
		niOut.AddPodInfo(pi)
		if s := f.RunPreFilterExtensionAddPod(ctx, stateOut, pod, pi, niOut); !s.IsSuccess() {
			return false, state, ni, s.AsError()
		}
	}
	if !added {
		return false, state, ni, nil
	}
	return true, stateOut, niOut, nil
}

// RunPreFilterExtensionAddPod runs every pre-filter's AddPod.
func (f *Framework) RunPreFilterExtensionAddPod(ctx context.Context, state *framework.CycleState, podToSchedule *corev1.Pod, podInfoToAdd *framework.PodInfo, ni *framework.NodeInfo) *framework.Status {
	for _, pl := range f.preFilter {
		ext := pl.PreFilterExtensions()
		if ext == nil || state.SkipFilterPlugins[pl.Name()] {
			continue
		}
		if s := ext.AddPod(ctx, state, podToSchedule, podInfoToAdd, ni); !s.IsSuccess() {
			return pluginError("PreFilterExtensionAddPod", pl.Name(), s)
		}
	}
	return nil
}

// RunPreFilterExtensionRemovePod runs every pre-filter's RemovePod.
func (f *Framework) RunPreFilterExtensionRemovePod(ctx context.Context, state *framework.CycleState, podToSchedule *corev1.Pod, podInfoToRemove *framework.PodInfo, ni *framework.NodeInfo) *framework.Status {
	for _, pl := range f.preFilter {
		ext := pl.PreFilterExtensions()
		if ext == nil || state.SkipFilterPlugins[pl.Name()] {
			continue
		}
		if s := ext.RemovePod(ctx, state, podToSchedule, podInfoToRemove, ni); !s.IsSuccess() {
			return pluginError("PreFilterExtensionRemovePod", pl.Name(), s)
		}
	}
	return nil
}

// RunPostFilterPlugins runs the post-filters until one succeeds (it
// nominates a node) or fails with an error.
func (f *Framework) RunPostFilterPlugins(ctx context.Context, state *framework.CycleState, pod *corev1.Pod, filtered framework.NodeToStatus) (res *framework.PostFilterResult, st *framework.Status) {
	start := time.Now()
	defer func() { f.observe(PostFilter, start, st) }()
	var reasons []string
	var plugin string
	for _, pl := range f.postFilter {
		t := time.Now()
		r, s := pl.PostFilter(ctx, state, pod, filtered)
		f.observePlugin(ctx, pl.Name(), PostFilter, t, s)
		switch {
		case s.IsSuccess():
			return r, s
		case !s.IsRejected():
			return nil, pluginError(PostFilter, pl.Name(), s)
		}
		reasons = append(reasons, s.Reasons()...)
		plugin = pl.Name()
	}
	return nil, framework.NewStatus(framework.Unschedulable, reasons...).WithPlugin(plugin)
}
