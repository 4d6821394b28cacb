package runtime

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	"platform.io/client/api/labels"
	"platform.io/client/client"
	"platform.io/client/record"

	"platform.io/platform/pkg/scheduler/config"
	"platform.io/platform/pkg/scheduler/framework"
	"platform.io/platform/pkg/scheduler/metrics"
)

// ErrConfig marks a profile whose plugins cannot be built.
var ErrConfig = errors.New("profile")

// Registry maps plugin names to their factories.
type Registry map[string]framework.Factory

// Options build one profile's framework.
type Options struct {
	Logger *zap.Logger
	// ProfileName is the profile's schedulerName.
	ProfileName string
	Registry    Registry
	// Plugins are the profile's merged plugin sets (config.SetDefaults).
	Plugins      *config.Plugins
	PluginConfig []config.PluginConfig
	Clients      *client.Set
	Recorder     record.Recorder
	Nominator    framework.PodNominator
	// Snapshot returns the current cycle's snapshot.
	Snapshot                       func() framework.NodeInfoLister
	Parallelism                    int
	HardPodAffinitySymmetricWeight int32
	Metrics                        *metrics.Metrics
	// NamespaceLabels returns a namespace's labels (nil if unknown).
	NamespaceLabels func(namespace string) labels.Set
}

type scorePlugin struct {
	framework.ScorePlugin
	weight int64
}

// maxFilterPlugins bounds a profile's filter plugins, whose skips a cycle
// keeps as bits of framework.CycleState.SkipFilterMask.
const maxFilterPlugins = 64

// Framework runs one profile's plugins.
type Framework struct {
	opts     Options
	lg       *zap.Logger
	parallel Parallelizer
	metrics  *metrics.Metrics

	queueSort  framework.QueueSortPlugin
	preFilter  []framework.PreFilterPlugin
	filter     []framework.FilterPlugin
	postFilter []framework.PostFilterPlugin
	preScore   []framework.PreScorePlugin
	score      []scorePlugin
	reserve    []framework.ReservePlugin
	permit     []framework.PermitPlugin
	preBind    []framework.PreBindPlugin
	bind       []framework.BindPlugin
	postBind   []framework.PostBindPlugin

	// filterObs and scoreObs are the plugins' success observers, by index.
	filterObs []prometheus.Observer
	scoreObs  []prometheus.Observer

	// events are the cluster events each plugin that can reject pods
	// registered (nil: every event).
	events  map[string][]framework.ClusterEvent
	waiting *waitingPods
	// scoreBuffers reuses the score lists of RunScorePlugins.
	scoreBuffers sync.Pool
}

var _ framework.Handle = (*Framework)(nil)

// New builds the profile's plugins: every plugin enabled at an extension
// point, then the multiPoint plugins at each point they implement and that
// does not disable them.
func New(opts Options) (*Framework, error) {
	if opts.Logger == nil {
		opts.Logger = zap.NewNop()
	}
	if opts.Metrics == nil {
		opts.Metrics = metrics.NewForTest()
	}
	f := &Framework{opts: opts, lg: opts.Logger, parallel: NewParallelizer(opts.Parallelism), metrics: opts.Metrics,
		events: map[string][]framework.ClusterEvent{}, waiting: newWaitingPods()}
	args := map[string][]byte{}
	for _, pc := range opts.PluginConfig {
		args[pc.Name] = pc.Args
	}
	plugins := map[string]framework.Plugin{}
	get := func(name string) (framework.Plugin, error) {
		if pl, ok := plugins[name]; ok {
			return pl, nil
		}
		factory, ok := opts.Registry[name]
		if !ok {
			return nil, fmt.Errorf("%w %q: unknown plugin %q", ErrConfig, opts.ProfileName, name)
		}
		pl, err := factory(args[name], f)
		if err != nil {
			return nil, fmt.Errorf("%w %q: plugin %q: %w", ErrConfig, opts.ProfileName, name, err)
		}
		plugins[name] = pl
		return pl, nil
	}
	multi := opts.Plugins.MultiPoint.Enabled
	for _, p := range multi {
		if _, err := get(p.Name); err != nil {
			return nil, err
		}
	}
	for _, ns := range opts.Plugins.Points() {
		if ns.Name == "multiPoint" {
			continue
		}
		list, err := f.expand(ns, multi, get)
		if err != nil {
			return nil, err
		}
		if err := f.assign(ns.Name, list); err != nil {
			return nil, err
		}
	}
	if f.queueSort == nil {
		return nil, fmt.Errorf("%w %q: no queueSort plugin is enabled", ErrConfig, opts.ProfileName)
	}
	if len(f.bind) == 0 {
		return nil, fmt.Errorf("%w %q: no bind plugin is enabled", ErrConfig, opts.ProfileName)
	}
	if len(f.filter) > maxFilterPlugins {
		return nil, fmt.Errorf("%w %q: %d filter plugins are enabled, at most %d may be", ErrConfig, opts.ProfileName, len(f.filter), maxFilterPlugins)
	}
	f.collectEvents(plugins)
	for _, pl := range f.filter {
		f.filterObs = append(f.filterObs, f.metrics.PluginObserver(pl.Name(), Filter))
	}
	for _, pl := range f.score {
		f.scoreObs = append(f.scoreObs, f.metrics.PluginObserver(pl.Name(), Score))
	}
	return f, nil
}

type weighted struct {
	pl       framework.Plugin
	weight   int32
	explicit bool
}

// expand returns one point's plugins: its own enabled ones, then the
// multiPoint ones that implement it, unless disabled there.
func (f *Framework) expand(ns config.NamedSet, multi []config.Plugin, get func(string) (framework.Plugin, error)) ([]weighted, error) {
	disabled := map[string]bool{}
	for _, p := range ns.Set.Disabled {
		disabled[p.Name] = true
	}
	var out []weighted
	seen := map[string]bool{}
	for _, p := range ns.Set.Enabled {
		pl, err := get(p.Name)
		if err != nil {
			return nil, err
		}
		if !implements(ns.Name, pl) {
			return nil, fmt.Errorf("%w %q: plugin %q enabled at %s does not implement it", ErrConfig, f.opts.ProfileName, p.Name, ns.Name)
		}
		if seen[p.Name] {
			return nil, fmt.Errorf("%w %q: plugin %q enabled twice at %s", ErrConfig, f.opts.ProfileName, p.Name, ns.Name)
		}
		seen[p.Name] = true
		out = append(out, weighted{pl: pl, weight: p.Weight, explicit: true})
	}
	if disabled["*"] {
		return out, nil
	}
	for _, p := range multi {
		pl, _ := get(p.Name)
		if seen[p.Name] || disabled[p.Name] || !implements(ns.Name, pl) {
			continue
		}
		seen[p.Name] = true
		out = append(out, weighted{pl: pl, weight: p.Weight})
	}
	return out, nil
}

// assign stores one point's plugins (already checked by implements).
func (f *Framework) assign(point string, list []weighted) error {
	for _, w := range list {
		if point != "queueSort" {
			extensionPoints[point].add(f, w)
			continue
		}
		if f.queueSort != nil {
			return fmt.Errorf("%w %q: only one queueSort plugin may be enabled, got %q and %q",
				ErrConfig, f.opts.ProfileName, f.queueSort.Name(), w.pl.Name())
		}
		f.queueSort = w.pl.(framework.QueueSortPlugin)
	}
	return nil
}

// collectEvents records the events of the plugins that can reject pods.
func (f *Framework) collectEvents(plugins map[string]framework.Plugin) {
	for name, pl := range plugins {
		if ee, ok := pl.(framework.EnqueueExtensions); ok {
			f.events[name] = ee.EventsToRegister()
		}
	}
}

// ProfileName returns the profile's scheduler name.
func (f *Framework) ProfileName() string { return f.opts.ProfileName }

// QueueSortName names the queue-sort plugin; all profiles must share it.
func (f *Framework) QueueSortName() string { return f.queueSort.Name() }

// Less is the queue-sort plugin's order.
func (f *Framework) Less(a, b *framework.QueuedPodInfo) bool { return f.queueSort.Less(a, b) }

// PluginEvents returns the cluster events by plugin name; a plugin that
// implements no EnqueueExtensions is absent (it cares about all events).
func (f *Framework) PluginEvents() map[string][]framework.ClusterEvent { return f.events }

// HasFilters reports filter plugins; HasScorePlugins score plugins;
// HasPostFilters post-filter plugins.
func (f *Framework) HasFilters() bool { return len(f.filter) > 0 }

// HasScorePlugins reports score plugins.
func (f *Framework) HasScorePlugins() bool { return len(f.score) > 0 }

// HasPostFilters reports post-filter plugins.
func (f *Framework) HasPostFilters() bool { return len(f.postFilter) > 0 }

// Handle methods.

// SnapshotSharedLister returns the cycle's snapshot.
func (f *Framework) SnapshotSharedLister() framework.NodeInfoLister { return f.opts.Snapshot() }

// Clients returns the API clients.
func (f *Framework) Clients() *client.Set { return f.opts.Clients }

// EventRecorder returns the event recorder.
func (f *Framework) EventRecorder() record.Recorder { return f.opts.Recorder }

// PodNominator returns the nominated pods.
func (f *Framework) PodNominator() framework.PodNominator { return f.opts.Nominator }

// Parallelize runs work on the scheduler's bounded workers.
func (f *Framework) Parallelize(ctx context.Context, n int, work func(i int)) {
	f.parallel.Until(ctx, n, work)
}

// HardPodAffinitySymmetricWeight is --hard-pod-affinity-symmetric-weight.
func (f *Framework) HardPodAffinitySymmetricWeight() int32 {
	return f.opts.HardPodAffinitySymmetricWeight
}

// NamespaceLabels returns a namespace's labels, for namespace selectors.
func (f *Framework) NamespaceLabels(namespace string) labels.Set {
	if f.opts.NamespaceLabels == nil {
		return nil
	}
	return f.opts.NamespaceLabels(namespace)
}
