package scheduler

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/api/resource"
	"platform.io/client/client"
	"platform.io/client/informer"

	"platform.io/platform/cmd/scheduler/app"
	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/pkg/component/daemon"
	"platform.io/platform/pkg/scheduler"
	"platform.io/platform/test/integration/framework"
)

const (
	zoneLabel = "topology.platform.io/zone"
	hostLabel = "platform.io/hostname"
	// writers is the concurrency of the fixture's creates.
	writers = 32
	// groups splits pods into label groups (anti-affinity, spreading) and
	// nodes into affinity groups.
	groups = 4
	zones  = 10
)

type scale struct{ nodes, pods int }

type variant struct {
	name string
	pod  func(i int) *corev1.Pod
	// config, when set, is the scheduler's --config file.
	config string
}

// floorConfig is a profile without filter and score plugins: the
// scheduler pops each pod, takes the first node it looks at, binds it and
// records the event, so its rate is what the rest of the path (queue,
// informers, binding, event, API server) allows, the ceiling of any
// plugin set on this machine.
const floorConfig = `apiVersion: scheduler.config.platform.io/v1
kind: SchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    multiPoint:
      disabled: [{name: "*"}]
    queueSort:
      enabled: [{name: PrioritySort}]
    bind:
      enabled: [{name: DefaultBinder}]
`

func basePod(name, schedulerName string) *corev1.Pod {
	zero := int64(0)
	return &corev1.Pod{
		ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{}},
		Spec: corev1.PodSpec{SchedulerName: schedulerName, TerminationGracePeriodSeconds: &zero,
			Containers: []corev1.Container{{Name: "c", Image: "registry.example/app:1", Resources: corev1.ResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("100Mi")}}}}},
	}
}

func plainPod(i int) *corev1.Pod {
	return basePod(fmt.Sprintf("p-%06d", i), corev1.DefaultSchedulerName)
}

func group(i int) string { return fmt.Sprintf("g%d", i%groups) }

func variants() []variant {
	return []variant{
		{name: "plain", pod: plainPod},
		{name: "floor-no-plugins", pod: plainPod, config: floorConfig},
		{name: "node-affinity", pod: func(i int) *corev1.Pod {
			p := basePod(fmt.Sprintf("p-%06d", i), corev1.DefaultSchedulerName)
			p.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{
				RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{
					MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "group", Operator: corev1.NodeSelectorOpIn, Values: []string{group(i)}}},
				}}}}}
			return p
		}},
		{name: "pod-anti-affinity", pod: func(i int) *corev1.Pod {
			p := basePod(fmt.Sprintf("p-%06d", i), corev1.DefaultSchedulerName)
			p.Labels["color"] = group(i)
			p.Spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{
				RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
					LabelSelector: &meta.LabelSelector{MatchLabels: map[string]string{"color": group(i)}}, TopologyKey: hostLabel}}}}
			return p
		}},
		{name: "topology-spread", pod: func(i int) *corev1.Pod {
			p := basePod(fmt.Sprintf("p-%06d", i), corev1.DefaultSchedulerName)
			p.Labels["app"] = group(i)
			p.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: zoneLabel,
				WhenUnsatisfiable: corev1.DoNotSchedule, LabelSelector: &meta.LabelSelector{MatchLabels: map[string]string{"app": group(i)}}}}
			return p
		}},
	}
}

// BenchmarkScheduling measures, per scale and kind of pod, the scheduler's
// rate (pods bound per second, from the start of the scheduling loop on
// synced informers to the last binding) and the API server's binding rate
// in the same run; the ratio is the scheduler's share of that limit.
func BenchmarkScheduling(b *testing.B) {
	scales := []scale{{500, 1000}, {5000, 10000}}
	if os.Getenv("SCHEDULER_BENCH_SMALL") != "" {
		scales = scales[:1]
	}
	fmt.Printf("\n| nodes | pods | pods | scheduled pods/s | API binding pods/s | scheduler / binding |\n|--:|--:|---|--:|--:|--:|\n")
	for _, sc := range scales {
		for _, v := range variants() {
			b.Run(fmt.Sprintf("%dNodes/%dPods/%s", sc.nodes, sc.pods, v.name), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					sched, bind := runOnce(b, sc, v)
					b.ReportMetric(sched, "pods/s")
					b.ReportMetric(bind, "binds/s")
					b.ReportMetric(100*sched/bind, "%-of-binding")
					fmt.Printf("| %d | %d | %s | %.0f | %.0f | %.0f%% |\n", sc.nodes, sc.pods, v.name, sched, bind, 100*sched/bind)
				}
			})
		}
	}
}

func runOnce(b *testing.B, sc scale, v variant) (schedRate, bindRate float64) {
	srv := framework.Start(b, func(o *options.Options) { o.Etcd.CompactionInterval = 0 })
	d := srv.Deps(b, "platform-scheduler")
	ctx := context.Background()
	createNodes(b, ctx, d.Clients, sc.nodes)
	bindRate = measureBinding(b, ctx, d.Clients, sc)
	parallel(b, sc.pods, func(i int) error {
		_, err := d.Clients.Pods.Namespace("default").Create(ctx, v.pod(i), meta.WriteOptions{})
		return err
	})
	o := app.NewOptions()
	o.Port = 0
	if v.config != "" {
		o.Config = filepath.Join(b.TempDir(), "scheduler.yaml")
		if err := os.WriteFile(o.Config, []byte(v.config), 0o600); err != nil {
			b.Fatal(err)
		}
		if err := o.LoadFile(o.Config, d.Shared); err != nil {
			b.Fatal(err)
		}
	}
	d.Own = o
	s, err := app.NewScheduler(d, o)
	if err != nil {
		b.Fatal(err)
	}
	bound := watchBound(b, d, sc.pods)
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	d.Informers.Start(rctx)
	if !d.Informers.WaitForCacheSync(rctx) {
		b.Fatal("informers did not sync")
	}
	stopProfile := startProfile(b, v.name, sc)
	cpu0, start := cpuTime(), time.Now()
	done := make(chan error, 1)
	go func() { done <- s.Run(rctx) }()
	select {
	case <-bound:
	case <-time.After(10 * time.Minute):
		b.Fatalf("%s: not all %d pods bound within 10m", v.name, sc.pods)
	}
	elapsed, cpu := time.Since(start), cpuTime()-cpu0
	stopProfile()
	cancel()
	if err := <-done; err != nil {
		b.Fatal(err)
	}
	// Scheduled events are written in the background by one sink, which
	// falls behind a scheduler running without rate limits: the events its
	// queue has no room for are dropped (as upstream's broadcaster drops
	// them), and their writes are missing from the CPU per pod.
	b.ReportMetric(100*float64(d.Events.Stats().Dropped)/float64(sc.pods), "%-events-dropped")
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(sc.pods), "core-ms/pod")
	b.ReportMetric(cpu.Seconds()/elapsed.Seconds(), "cores")
	return float64(sc.pods) / elapsed.Seconds(), bindRate
}

// createNodes creates n nodes with room for many pods, in zones and
// affinity groups.
func createNodes(b *testing.B, ctx context.Context, c *client.Set, n int) {
	rl := corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("32"), corev1.ResourceMemory: resource.MustParse("64Gi"),
		corev1.ResourcePods: resource.MustParse("110")}
	parallel(b, n, func(i int) error {
		name := fmt.Sprintf("node-%05d", i)
		node := &corev1.Node{ObjectMeta: meta.ObjectMeta{Name: name, Labels: map[string]string{
			hostLabel: name, zoneLabel: fmt.Sprintf("zone-%d", i%zones), "group": group(i)}}}
		created, err := c.Nodes.Create(ctx, node, meta.WriteOptions{})
		if err != nil {
			return err
		}
		created.Status.Capacity, created.Status.Allocatable = rl, rl
		created.Status.Conditions = []corev1.NodeCondition{{Type: "Ready", Status: corev1.ConditionTrue}}
		_, err = c.Nodes.UpdateStatus(ctx, created, meta.WriteOptions{})
		return err
	})
}

// measureBinding creates as many pods as the run schedules, for a
// scheduler name nobody serves, and binds them round-robin to the nodes
// with the scheduler's binding concurrency; it returns bindings/s.
func measureBinding(b *testing.B, ctx context.Context, c *client.Set, sc scale) float64 {
	parallel(b, sc.pods, func(i int) error {
		_, err := c.Pods.Namespace("default").Create(ctx, basePod(fmt.Sprintf("bind-%06d", i), "nobody"), meta.WriteOptions{})
		return err
	})
	var next atomic.Int64
	var wg sync.WaitGroup
	var failed atomic.Value
	cpu0, start := cpuTime(), time.Now()
	for w := 0; w < scheduler.MaxInFlightBindings; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= sc.pods {
					return
				}
				name := fmt.Sprintf("bind-%06d", i)
				binding := &corev1.Binding{ObjectMeta: meta.ObjectMeta{Namespace: "default", Name: name},
					Target: corev1.ObjectReference{Kind: "Node", Name: fmt.Sprintf("node-%05d", i%sc.nodes)}}
				if err := c.Pods.Namespace("default").Bind(ctx, binding, meta.WriteOptions{}); err != nil {
					failed.Store(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	elapsed, cpu := time.Since(start), cpuTime()-cpu0
	if err, ok := failed.Load().(error); ok {
		b.Fatalf("bind: %v", err)
	}
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(sc.pods), "bind-core-ms/pod")
	return float64(sc.pods) / elapsed.Seconds()
}

// watchBound returns a channel closed once want pods of the default
// scheduler are bound, as a pod informer of its own sees them.
func watchBound(b *testing.B, d *daemon.Deps, want int) <-chan struct{} {
	inf, err := client.Inform(d.Informers, d.Clients.Pods)
	if err != nil {
		b.Fatal(err)
	}
	done := make(chan struct{})
	n := 0
	_, err = inf.AddEventHandler(informer.ResourceEventHandler[*corev1.Pod]{
		OnUpdate: func(old, p *corev1.Pod) {
			if old.Spec.NodeName == "" && p.Spec.NodeName != "" && p.Spec.SchedulerName == corev1.DefaultSchedulerName {
				if n++; n == want {
					close(done)
				}
			}
		},
	})
	if err != nil {
		b.Fatal(err)
	}
	return done
}

// parallel runs f(0..n-1) on writers goroutines and fails b on an error.
func parallel(b *testing.B, n int, f func(i int) error) {
	b.Helper()
	var next atomic.Int64
	var wg sync.WaitGroup
	errc := make(chan error, writers)
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err := f(i); err != nil {
					errc <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errc)
	if err := <-errc; err != nil {
		b.Fatal(err)
	}
}

// cpuTime is the CPU time (user and system) the process has used so far:
// the API server, etcd, the clients and the scheduler all run in it, so
// CPU per pod is what the rates are a ratio of on a saturated machine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// startProfile writes a CPU profile of the scheduling phase alone to
// $SCHEDULER_BENCH_CPUPROFILE-<nodes>-<kind> when that variable is set
// (go test's -cpuprofile covers the fixtures and the binding baseline too).
func startProfile(b *testing.B, kind string, sc scale) (stop func()) {
	prefix := os.Getenv("SCHEDULER_BENCH_CPUPROFILE")
	if prefix == "" {
		return func() {}
	}
	f, err := os.Create(fmt.Sprintf("%s-%d-%s", prefix, sc.nodes, kind))
	if err != nil {
		b.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		b.Fatal(err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
