package scheduler

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/client"
	"platform.io/client/rest"
	"platform.io/client/watch"

	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/test/integration/framework"
)

const (
	// takeoverPods are created after the leader is gone; the first of them
	// the successor binds ends the takeover.
	takeoverPods = 100
	// stepLimit bounds every wait.
	stepLimit = 3 * time.Minute
)

// BenchmarkSchedulerStart runs the built platform-scheduler against an API
// server holding 5,000 nodes and 10,000 pending pods (500 and 1,000 with
// SCHEDULER_BENCH_SMALL) and measures:
//
//   - cold starts: from the exec to the first binding, in phases read from
//     the scheduler's log (process up, each informer synced, scheduling
//     started), with protobuf (the default) and with JSON, each the median
//     of coldStarts runs without leader election (each is stopped after
//     its first binding, so the pods stay pending for the next), and once
//     more with leader election, as operators run it; next to the floor:
//     the same objects listed by the benchmark with the same client, in the
//     same pages, all resources at once;
//   - takeovers: a second replica, started once the first leads, so its
//     informers sync as a standby's; the leader stopped with SIGTERM (it
//     releases the lease); and the time from the signal to the successor
//     leading and to its first binding. Then the same after SIGKILL of
//     that leader, with a third replica waiting, which waits out the lease
//     (--leader-elect-lease-duration, 15s) first.
//
// Run one part alone with -bench SchedulerStart/ColdStart or
// SchedulerStart/Takeover; the cold starts need only the "starting" and
// "first binding" a binary of any version gives (a phase its log does not
// show is printed as "-"), so they also measure older binaries.
func BenchmarkSchedulerStart(b *testing.B) {
	binDir(b)
	sc := scale{5000, 10000}
	if os.Getenv("SCHEDULER_BENCH_SMALL") != "" {
		sc = scale{500, 1000}
	}
	srv := framework.Start(b, func(o *options.Options) { o.Etcd.CompactionInterval = 0 })
	set := client.NewSet(srv.RESTClient(b))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	createNodes(b, ctx, set, sc.nodes)
	parallel(b, sc.pods, func(i int) error {
		_, err := set.Pods.Namespace("default").Create(ctx, plainPod(i), meta.WriteOptions{})
		return err
	})
	f := &startFixture{set: set, w: watchBindings(b, ctx, set), dir: b.TempDir(),
		args: []string{"--master", srv.URL, "--secure-port=0", "--port=0", "--log-format=json"}}
	var floors []time.Duration
	for range coldStarts {
		floors = append(floors, listFloor(b, ctx, set))
	}
	f.floor = median(floors)
	fmt.Printf("\n%d nodes, %d pending pods; list floor (median of %d) %.2fs\n", sc.nodes, sc.pods, coldStarts, f.floor.Seconds())
	b.Run("ColdStart", func(b *testing.B) {
		for range b.N {
			f.coldStarts(b)
		}
	})
	b.Run("Takeover", func(b *testing.B) {
		for range b.N {
			f.takeovers(b, ctx)
		}
	})
}

// coldStarts is how many cold starts each variant's median is taken of.
const coldStarts = 3

// startFixture is the cluster the scheduler replicas start against.
type startFixture struct {
	set   *client.Set
	w     *bindWatch
	dir   string
	args  []string // every replica's flags
	floor time.Duration
	n     int // replicas started so far, for their names
}

// phases are one cold start's times since the exec; a phase the log does
// not show is negative.
type phases struct {
	up, nodesSynced, podsSynced, scheduling, firstBinding time.Duration
	// cpu is the scheduler's CPU time at the first binding.
	cpu time.Duration
}

func (f *startFixture) start(b *testing.B, args ...string) *process {
	f.n++
	return startProcess(b, f.dir, "platform-scheduler", fmt.Sprintf("scheduler-%d", f.n), append(slices.Clone(f.args), args...)...)
}

func secs(d time.Duration) string {
	if d < 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", d.Seconds())
}

func (f *startFixture) header() {
	fmt.Printf("\n| client | start to first binding s | / list floor | up | nodes synced | pods synced | scheduling started | scheduler CPU s |\n|---|--:|--:|--:|--:|--:|--:|--:|\n")
}

func (f *startFixture) row(name string, p phases) {
	fmt.Printf("| %s | %.2f | %.2f | %s | %s | %s | %s | %.2f |\n", name, p.firstBinding.Seconds(), p.firstBinding.Seconds()/f.floor.Seconds(),
		secs(p.up), secs(p.nodesSynced), secs(p.podsSynced), secs(p.scheduling), p.cpu.Seconds())
}

// coldStarts starts coldStarts replicas without leader election per
// content type, one at a time, each stopped after its first binding (so the
// pods stay pending for the next), and reports the median.
func (f *startFixture) coldStarts(b *testing.B) {
	f.header()
	for _, v := range []struct{ name, contentType string }{
		{"protobuf", rest.ContentTypeProtobuf}, {"json", rest.ContentTypeJSON},
	} {
		var runs []phases
		for range coldStarts {
			p := f.start(b, "--leader-elect=false", "--platform-api-content-type="+v.contentType)
			runs = append(runs, coldStart(b, f.w, p))
			p.stop(b, syscall.SIGTERM)
			// A binding the stopped replica abandoned may still land.
			f.w.settle(b, 500*time.Millisecond)
		}
		slices.SortFunc(runs, func(x, y phases) int { return cmp.Compare(x.firstBinding, y.firstBinding) })
		m := runs[len(runs)/2]
		b.ReportMetric(m.firstBinding.Seconds(), v.name+"-start-to-binding-s")
		b.ReportMetric(m.firstBinding.Seconds()/f.floor.Seconds(), v.name+"-start/list-floor")
		f.row(fmt.Sprintf("%s (median; %.2f-%.2f)", v.name, runs[0].firstBinding.Seconds(), runs[len(runs)-1].firstBinding.Seconds()), m)
	}
}

// takeovers starts a leader, then a standby once it leads, stops the
// leader with SIGTERM; starts a third replica, and kills the second leader
// with SIGKILL; the last leader is stopped at the end.
func (f *startFixture) takeovers(b *testing.B, ctx context.Context) {
	f.header()
	a := f.start(b)
	f.row("protobuf, leader-elect", coldStart(b, f.w, a))

	// A standby syncs while the leader schedules, then waits for the lease.
	sb := f.start(b)
	warm := waitSynced(b, sb)
	fmt.Printf("\nstandby synced %.2fs after its start\n\n| leader stopped by | to lease released s | to its exit s | to successor leading s | to its first binding s |\n|---|--:|--:|--:|--:|\n", warm.Seconds())

	// SIGTERM: the leader stops its work and releases the lease.
	tk := takeover(b, ctx, f.set, f.w, a, sb, syscall.SIGTERM, fmt.Sprintf("t%d-", f.n))
	b.ReportMetric(tk.bound.Seconds(), "sigterm-takeover-s")
	fmt.Printf("| SIGTERM | %s | %.2f | %.2f | %.2f |\n", secs(tk.released), tk.exited.Seconds(), tk.acquired.Seconds(), tk.bound.Seconds())

	// SIGKILL: the successor waits for the lease to run out.
	c := f.start(b)
	waitSynced(b, c)
	tk = takeover(b, ctx, f.set, f.w, sb, c, syscall.SIGKILL, fmt.Sprintf("k%d-", f.n))
	b.ReportMetric(tk.bound.Seconds(), "sigkill-takeover-s")
	fmt.Printf("| SIGKILL | %s | %.2f | %.2f | %.2f |\n", secs(tk.released), tk.exited.Seconds(), tk.acquired.Seconds(), tk.bound.Seconds())
	c.stop(b, syscall.SIGTERM)
}

// coldStart waits for the first binding after p started and reads the
// phases from p's log.
func coldStart(b *testing.B, w *bindWatch, p *process) phases {
	r := phases{firstBinding: w.firstAfter(b, p.started).Sub(p.started), cpu: p.cpu()}
	r.up = p.lookup(b, "starting", nil)
	r.nodesSynced = p.lookup(b, "informer synced", map[string]string{"resource": "nodes"})
	r.podsSynced = p.lookup(b, "informer synced", map[string]string{"resource": "pods"})
	r.scheduling = p.lookup(b, "scheduling started", nil)
	return r
}

func median(ds []time.Duration) time.Duration {
	ds = slices.Clone(ds)
	slices.Sort(ds)
	return ds[len(ds)/2]
}

// waitSynced waits until p's scheduler informers have all synced and
// returns how long after p's start the last did.
func waitSynced(b *testing.B, p *process) time.Duration {
	var last time.Duration
	for _, res := range []string{"nodes", "pods", "namespaces"} {
		last = max(last, p.waitLog(b, stepLimit, "informer synced", map[string]string{"resource": res}).since(p.started))
	}
	return last
}

// takeoverTimes are the times from the signal to the old leader's
// "stopped leading" (logged once it released the lease; negative when it
// did not), to its exit, to the successor's "started leading", and to the
// first binding seen after that (the successor's: the old leader is gone
// by then).
type takeoverTimes struct{ released, exited, acquired, bound time.Duration }

// takeover stops the leader with sig and, once it has exited, creates
// takeoverPods pending pods named prefix*, so there is work whatever the
// leader left.
func takeover(b *testing.B, ctx context.Context, set *client.Set, w *bindWatch, leader, successor *process, sig syscall.Signal, prefix string) takeoverTimes {
	t0 := time.Now()
	leader.stop(b, sig)
	exited := time.Since(t0)
	parallel(b, takeoverPods, func(i int) error {
		p := basePod(fmt.Sprintf("%s%04d", prefix, i), corev1.DefaultSchedulerName)
		_, err := set.Pods.Namespace("default").Create(ctx, p, meta.WriteOptions{})
		return err
	})
	lead := successor.waitLog(b, stepLimit, "started leading", nil)
	bound := w.firstAfter(b, lead.time())
	released := leader.lookup(b, "stopped leading", nil)
	if released >= 0 {
		released -= t0.Sub(leader.started)
	}
	return takeoverTimes{released: released, exited: exited, acquired: lead.since(t0), bound: bound.Sub(t0)}
}

// listFloor lists nodes, pods and namespaces as the scheduler's informers
// do (resourceVersion 0, pages of 500, the three at once, decoded), with
// the benchmark's client, and returns the time the slowest took.
func listFloor(b *testing.B, ctx context.Context, set *client.Set) time.Duration {
	start := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, 3)
	list := func(l func(meta.ListOptions) (meta.ListMeta, error)) {
		defer wg.Done()
		opts := meta.ListOptions{ResourceVersion: "0", Limit: 500}
		for {
			lm, err := l(opts)
			if err != nil {
				errs <- err
				return
			}
			if lm.Continue == "" {
				return
			}
			opts.Continue, opts.ResourceVersion = lm.Continue, ""
		}
	}
	wg.Add(3)
	go list(func(o meta.ListOptions) (meta.ListMeta, error) {
		l, err := set.Nodes.List(ctx, o)
		if err != nil {
			return meta.ListMeta{}, err
		}
		return l.ListMeta, nil
	})
	go list(func(o meta.ListOptions) (meta.ListMeta, error) {
		l, err := set.Pods.List(ctx, o)
		if err != nil {
			return meta.ListMeta{}, err
		}
		return l.ListMeta, nil
	})
	go list(func(o meta.ListOptions) (meta.ListMeta, error) {
		l, err := set.Namespaces.List(ctx, o)
		if err != nil {
			return meta.ListMeta{}, err
		}
		return l.ListMeta, nil
	})
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		b.Fatal(err)
	}
	return time.Since(start)
}

// bindWatch records, from one watch, which pods were seen bound, and per
// name prefix (up to the first "-") when the first was and how many are.
type bindWatch struct {
	mu      sync.Mutex
	bound   map[string]bool // mu guards all fields
	first   map[string]time.Time
	count   map[string]int
	times   []time.Time   // of every binding, in the order seen
	changed chan struct{} // closed and replaced at every change
	err     error
}

func watchBindings(b *testing.B, ctx context.Context, set *client.Set) *bindWatch {
	l, err := set.Pods.List(ctx, meta.ListOptions{Limit: 1})
	if err != nil {
		b.Fatal(err)
	}
	wi, err := set.Pods.Watch(ctx, meta.ListOptions{ResourceVersion: l.ResourceVersion, TimeoutSeconds: 3600})
	if err != nil {
		b.Fatal(err)
	}
	w := &bindWatch{bound: map[string]bool{}, first: map[string]time.Time{}, count: map[string]int{}, changed: make(chan struct{})}
	go func() {
		defer wi.Stop()
		for ev := range wi.ResultChan() {
			if ev.Type == watch.Error {
				w.fail(fmt.Errorf("watch: %v", ev.Status))
				return
			}
			if ev.Type != watch.Modified || ev.Object.Spec.NodeName == "" {
				continue
			}
			name := ev.Object.Name
			prefix := name[:strings.IndexByte(name, '-')+1]
			w.mu.Lock()
			if !w.bound[name] {
				w.bound[name] = true
				now := time.Now()
				if w.count[prefix]++; w.count[prefix] == 1 {
					w.first[prefix] = now
				}
				w.times = append(w.times, now)
				close(w.changed)
				w.changed = make(chan struct{})
			}
			w.mu.Unlock()
		}
		if ctx.Err() == nil {
			w.fail(fmt.Errorf("the pod watch ended"))
		}
	}()
	return w
}

func (w *bindWatch) fail(err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.err = err
	close(w.changed)
	w.changed = make(chan struct{})
}

// wait waits until check, called under mu, reports done.
func (w *bindWatch) wait(b *testing.B, what string, check func() bool) {
	deadline := time.After(stepLimit)
	for {
		w.mu.Lock()
		done, err, changed := check(), w.err, w.changed
		w.mu.Unlock()
		switch {
		case err != nil:
			b.Fatal(err)
		case done:
			return
		}
		select {
		case <-changed:
		case <-deadline:
			b.Fatalf("%s: not within %s", what, stepLimit)
		}
	}
}

// waitFirst returns when the first pod named prefix* was seen bound.
func (w *bindWatch) waitFirst(b *testing.B, prefix string) time.Time {
	var first time.Time
	w.wait(b, "a binding of "+prefix+"*", func() bool {
		first = w.first[prefix]
		return !first.IsZero()
	})
	return first
}

// firstAfter returns when the first pod bound after t was seen bound.
func (w *bindWatch) firstAfter(b *testing.B, t time.Time) time.Time {
	var first time.Time
	w.wait(b, "a binding after "+t.Format(time.StampMilli), func() bool {
		i := sort.Search(len(w.times), func(i int) bool { return w.times[i].After(t) })
		if i < len(w.times) {
			first = w.times[i]
		}
		return !first.IsZero()
	})
	return first
}

// settle returns once no binding has been seen for quiet.
func (w *bindWatch) settle(b *testing.B, quiet time.Duration) {
	deadline := time.After(stepLimit)
	for {
		w.mu.Lock()
		var last time.Time
		if n := len(w.times); n > 0 {
			last = w.times[n-1]
		}
		changed := w.changed
		w.mu.Unlock()
		wait := quiet - time.Since(last)
		if wait <= 0 {
			return
		}
		select {
		case <-changed:
		case <-time.After(wait):
		case <-deadline:
			b.Fatalf("bindings did not settle within %s", stepLimit)
		}
	}
}
