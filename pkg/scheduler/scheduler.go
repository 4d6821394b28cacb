package scheduler

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/labels"
	"platform.io/client/client"
	"platform.io/client/informer"
	"platform.io/client/record"

	"platform.io/platform/pkg/scheduler/cache"
	"platform.io/platform/pkg/scheduler/config"
	"platform.io/platform/pkg/scheduler/framework"
	"platform.io/platform/pkg/scheduler/metrics"
	"platform.io/platform/pkg/scheduler/queue"
	"platform.io/platform/pkg/scheduler/runtime"
)

// MaxInFlightBindings bounds the binding cycles running at once; the
// scheduling loop waits for a slot, so a slow API server slows it down
// instead of piling up goroutines.
const MaxInFlightBindings = 64

// pluginMetricsSampleEvery samples one cycle in this many for per-plugin
// latency (upstream samples 10%).
const pluginMetricsSampleEvery = 10

// Options build a Scheduler.
type Options struct {
	Logger    *zap.Logger
	Clients   *client.Set
	Informers *informer.Factory
	Recorder  record.Recorder
	Metrics   *metrics.Metrics
	// Config is the defaulted, validated configuration.
	Config   *config.Configuration
	Registry runtime.Registry
	// HardPodAffinitySymmetricWeight is the flag's value (0..100).
	HardPodAffinitySymmetricWeight int32
	// Now is the clock of deadlines; nil for time.Now.
	Now func() time.Time
}

// Scheduler is the scheduling loop with its queue, cache and profiles.
type Scheduler struct {
	lg       *zap.Logger
	clients  *client.Set
	recorder record.Recorder
	metrics  *metrics.Metrics
	now      func() time.Time

	Queue    *queue.Queue
	Cache    *cache.Cache
	Profiles map[string]*runtime.Framework

	snapshot   *cache.Snapshot
	percentage int32
	pods       informer.Lister[*corev1.Pod]
	namespaces informer.Lister[*corev1.Namespace]

	// nextStartNodeIndex rotates the first node filtered between cycles;
	// only the scheduling goroutine touches it.
	nextStartNodeIndex int
	cycles             int64
	// statusBuf holds a filter pass's rejections by node position.
	statusBuf []*framework.Status
	bindSlots chan struct{}
	bindings  sync.WaitGroup
	// runStart is when Run began; firstBound turns true at the first
	// binding after it, which is logged: the time from a start or a
	// takeover to the first binding is what a standby's warm caches save.
	runStart   time.Time
	firstBound atomic.Bool
	// handlers are the registrations of the pod and node handlers.
	handlers []*informer.Registration
}

// New builds the scheduler and declares its informers (pods, nodes,
// namespaces) on o.Informers, with handlers that feed the cache and queue.
func New(o Options) (*Scheduler, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	s := &Scheduler{
		lg: o.Logger, clients: o.Clients, recorder: o.Recorder, metrics: o.Metrics, now: o.Now,
		Cache: cache.New(o.Logger.Named("cache"), 0, nil), Profiles: map[string]*runtime.Framework{},
		snapshot: cache.NewEmptySnapshot(), percentage: *o.Config.PercentageOfNodesToScore,
		bindSlots: make(chan struct{}, MaxInFlightBindings),
	}
	podInf, err := client.Inform(o.Informers, o.Clients.Pods)
	if err != nil {
		return nil, fmt.Errorf("pod informer: %w", err)
	}
	nodeInf, err := client.Inform(o.Informers, o.Clients.Nodes)
	if err != nil {
		return nil, fmt.Errorf("node informer: %w", err)
	}
	nsInf, err := client.Inform(o.Informers, o.Clients.Namespaces)
	if err != nil {
		return nil, fmt.Errorf("namespace informer: %w", err)
	}
	s.pods, s.namespaces = podInf.Lister(), nsInf.Lister()
	if err := s.buildProfiles(o); err != nil {
		return nil, err
	}
	if err := s.addHandlers(podInf, nodeInf); err != nil {
		return nil, err
	}
	return s, nil
}

// buildProfiles builds each profile's framework and the queue they share.
func (s *Scheduler) buildProfiles(o Options) error {
	c := o.Config
	var first *runtime.Framework
	nominator := &lateNominator{}
	for _, p := range c.Profiles {
		fwk, err := runtime.New(runtime.Options{
			Logger: o.Logger.Named(p.SchedulerName), ProfileName: p.SchedulerName, Registry: o.Registry,
			Plugins: p.Plugins, PluginConfig: p.PluginConfig, Clients: o.Clients, Recorder: o.Recorder,
			Nominator: nominator, Snapshot: func() framework.NodeInfoLister { return s.snapshot },
			Parallelism: int(*c.Parallelism), HardPodAffinitySymmetricWeight: o.HardPodAffinitySymmetricWeight,
			Metrics: o.Metrics, NamespaceLabels: s.namespaceLabels,
		})
		if err != nil {
			return err
		}
		if first != nil && fwk.QueueSortName() != first.QueueSortName() {
			return fmt.Errorf("%w %q: queueSort plugin %q differs from profile %q's %q: all profiles share one queue",
				runtime.ErrConfig, p.SchedulerName, fwk.QueueSortName(), first.ProfileName(), first.QueueSortName())
		}
		if first == nil {
			first = fwk
		}
		s.Profiles[p.SchedulerName] = fwk
	}
	events := map[string][]framework.ClusterEvent{}
	for _, fwk := range s.Profiles {
		for name, evs := range fwk.PluginEvents() {
			events[name] = evs
		}
	}
	s.Queue = queue.New(queue.Options{
		Less: first.Less, InitialBackoff: time.Duration(*c.PodInitialBackoffSeconds) * time.Second,
		MaxBackoff:         time.Duration(*c.PodMaxBackoffSeconds) * time.Second,
		MaxInUnschedulable: config.DefaultPodMaxInUnschedulablePodsDuration,
		PluginEvents:       events, OnChange: o.Metrics.Pending,
	})
	nominator.PodNominator = s.Queue.Nominator()
	return nil
}

// lateNominator lets the frameworks, built before the queue, reach the
// queue's nominator.
type lateNominator struct{ framework.PodNominator }

// Empty reports that no pod is nominated (a lock-free fast path).
func (l *lateNominator) Empty() bool { return l.PodNominator.(*queue.Nominator).Empty() }

func (s *Scheduler) namespaceLabels(ns string) labels.Set {
	n, err := s.namespaces.Get(ns)
	if err != nil {
		return nil
	}
	return labels.Set(n.Labels)
}

// Run schedules pods until ctx ends, then waits for bindings in flight.
// It starts once the handlers have consumed the informers' first lists:
// run it after the informers have synced.
func (s *Scheduler) Run(ctx context.Context) error {
	if !s.waitForHandlers(ctx) {
		return nil
	}
	s.runStart = time.Now()
	s.firstBound.Store(false)
	active, backoff, unschedulable := s.Queue.Sizes()
	nodes, pods := s.Cache.Counts()
	s.lg.Info("scheduling started", zap.Int("activePods", active), zap.Int("backoffPods", backoff),
		zap.Int("unschedulablePods", unschedulable), zap.Int("nodes", nodes), zap.Int("assignedPods", pods))
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); s.Queue.Run(ctx) }()
	go func() { defer wg.Done(); s.Cache.Run(ctx) }()
	defer wg.Wait()
	defer s.bindings.Wait()
	for {
		if err := s.scheduleOne(ctx); err != nil {
			if errors.Is(err, queue.ErrClosed) {
				return nil
			}
			return err
		}
	}
}
