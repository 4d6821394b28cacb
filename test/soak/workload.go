package soak

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/client"
)

// The workload's pace and bounds.
const (
	// ns holds the long-lived objects; each cycle also makes a namespace
	// of its own (tmpNS) and deletes the one before.
	ns = "soak"
	// web is the Deployment scaled and rolled every cycle.
	web = "web"
	// converge bounds each correctness check.
	converge = 90 * time.Second
	// churn is how many ConfigMaps (and a third as many Secrets) a cycle
	// creates, updates, and deletes the cycle after.
	churn = 9
	// cronLate is how long after the last scheduled run of the every-minute
	// CronJob the next one must have been scheduled.
	cronLate = 150 * time.Second
	// listEvery paces the periodic lists; watchSilence is the longest a
	// watch may go without an event while the workload writes.
	listEvery    = 10 * time.Second
	watchSilence = 2 * time.Minute
)

// Workload drives the mixed workload of the soak against a Cluster: a
// cycle every Period (scale or roll a Deployment through kubectl, delete
// one of its pods, run a Job, churn ConfigMaps and Secrets, make Services
// and a LoadBalancer, make a namespace with contents and delete the last
// one), a CronJob every minute, long-running watches and periodic lists.
// Every cycle checks that what it asked for happened, so that a stalled
// control plane cannot pass as a flat one.
type Workload struct {
	c      *Cluster
	set    *client.Set
	Period time.Duration
	// Ops counts the API calls and kubectl runs; Checks the correctness
	// checks.
	Ops, Checks *Tally
	Cycles      int
	started     time.Time
	rng         *rand.Rand
	watches     []*watchState
}

// NewWorkload prepares a workload on c, one cycle every period.
func NewWorkload(c *Cluster, period time.Duration) *Workload {
	return &Workload{c: c, set: c.Clients, Period: period, Ops: NewTally(), Checks: NewTally(),
		rng: rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))}
}

// Setup creates the long-lived objects: the namespace, the Deployment at
// 3 replicas, its Service and the CronJob, and waits for the Deployment.
func (w *Workload) Setup(ctx context.Context) error {
	steps := []struct {
		name string
		do   func() error
	}{
		{"create namespace", func() error { _, err := w.set.Namespaces.Create(ctx, namespace(ns), meta.WriteOptions{}); return err }},
		{"create deployment", func() error {
			_, err := w.set.Deployments.Namespace(ns).Create(ctx, deployment(ns, web, 3), meta.WriteOptions{})
			return err
		}},
		{"create service", func() error {
			_, err := w.set.Services.Namespace(ns).Create(ctx, service(ns, web, corev1.ServiceTypeClusterIP, map[string]string{"app": web}), meta.WriteOptions{})
			return err
		}},
		{"create cronjob", func() error {
			_, err := w.set.CronJobs.Namespace(ns).Create(ctx, cronJob(ns, "tick"), meta.WriteOptions{})
			return err
		}},
	}
	for _, s := range steps {
		// The namespace's default service account, which admission
		// wants for every pod, is made by the controller manager.
		if err := s.do(); err != nil {
			return fmt.Errorf("setup: %s: %w", s.name, err)
		}
	}
	return w.waitFor(ctx, "deployment web at 3 replicas", func() error { return w.deploymentAt(ctx, 3) })
}

// Run runs the cycles, the lists and the watches until ctx ends.
func (w *Workload) Run(ctx context.Context) {
	w.started = time.Now()
	var wg sync.WaitGroup
	for _, r := range []string{"pods", "configmaps", "deployments"} {
		st := &watchState{resource: r, last: time.Now()}
		w.watches = append(w.watches, st)
		wg.Add(1)
		go func() { defer wg.Done(); w.watch(ctx, st) }()
	}
	wg.Add(1)
	go func() { defer wg.Done(); w.listLoop(ctx) }()
	tick := time.NewTicker(w.Period)
	defer tick.Stop()
	for k := 0; ctx.Err() == nil; k++ {
		w.cycle(ctx, k)
		w.Cycles++
		select {
		case <-ctx.Done():
		case <-tick.C:
		}
	}
	wg.Wait()
}

// cycle is one round of the workload; k numbers it.
func (w *Workload) cycle(ctx context.Context, k int) {
	w.deploymentStep(ctx, k)
	w.jobStep(ctx, k)
	w.configStep(ctx, k)
	w.serviceStep(ctx, k)
	w.namespaceStep(ctx, k)
	w.kubectl(ctx, "kubectl get", "get", "pods,deployments,services,jobs", "-A")
	w.checkWatches(ctx)
	w.checkCronJob(ctx)
}

// note counts an operation's outcome, unless it failed because the run
// ended.
func (w *Workload) note(ctx context.Context, tally *Tally, name string, err error) {
	if err != nil && ctx.Err() != nil {
		return
	}
	tally.Note(name, err)
}

func (w *Workload) op(ctx context.Context, name string, err error) { w.note(ctx, w.Ops, name, err) }

// kubectl runs the stock kubectl as the admin and counts its outcome.
func (w *Workload) kubectl(ctx context.Context, name string, args ...string) {
	kctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	r, err := w.c.Server.RunKubectl(kctx, args...)
	if err == nil && r.Code != 0 {
		err = fmt.Errorf("exit code %d: %s", r.Code, strings.TrimSpace(r.Stderr))
	}
	w.op(ctx, name, err)
}

// waitFor polls check every second until it returns nil or converge
// passes, and counts the outcome as the check named what.
func (w *Workload) waitFor(ctx context.Context, what string, check func() error) error {
	deadline := time.Now().Add(converge)
	var err error
	for {
		if err = check(); err == nil || time.Now().After(deadline) || ctx.Err() != nil {
			break
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
	if err != nil {
		err = fmt.Errorf("not within %v: %w", converge, err)
	}
	w.note(ctx, w.Checks, what, err)
	return err
}

// deploymentStep scales web to 2-5 replicas (even cycles) or rolls it to
// the next image (odd ones) with kubectl, deletes one of its pods, and
// checks that it converges: every replica updated and available, as many
// pods Running as replicas.
func (w *Workload) deploymentStep(ctx context.Context, k int) {
	d, err := w.set.Deployments.Namespace(ns).Get(ctx, web, meta.GetOptions{})
	w.op(ctx, "get deployment", err)
	if err != nil {
		return
	}
	want := *d.Spec.Replicas
	if k%2 == 0 {
		want = 2 + w.rng.Int32N(4)
		w.kubectl(ctx, "kubectl scale", "scale", "deployment/"+web, "-n", ns, fmt.Sprintf("--replicas=%d", want))
	} else {
		w.kubectl(ctx, "kubectl set image", "set", "image", "deployment/"+web, "-n", ns, "main="+image(k/2+1))
	}
	pods, err := w.set.Pods.Namespace(ns).List(ctx, meta.ListOptions{LabelSelector: "app=" + web})
	w.op(ctx, "list pods", err)
	if err == nil && len(pods.Items) > 0 {
		p := pods.Items[w.rng.IntN(len(pods.Items))]
		w.op(ctx, "delete pod", ignoreNotFound(w.set.Pods.Namespace(ns).Delete(ctx, p.Name, nil)))
	}
	_ = w.waitFor(ctx, "deployment converges", func() error { return w.deploymentAt(ctx, want) })
}

// deploymentAt checks that web has n replicas, all updated and
// available, and n Running pods of its current template.
func (w *Workload) deploymentAt(ctx context.Context, n int32) error {
	d, err := w.set.Deployments.Namespace(ns).Get(ctx, web, meta.GetOptions{})
	if err != nil {
		return err
	}
	st := d.Status
	if d.Spec.Replicas == nil || *d.Spec.Replicas != n || st.ObservedGeneration < d.Generation ||
		st.Replicas != n || st.UpdatedReplicas != n || st.AvailableReplicas != n {
		return fmt.Errorf("spec %v, generation %d observed %d, replicas %d updated %d available %d",
			d.Spec.Replicas, d.Generation, st.ObservedGeneration, st.Replicas, st.UpdatedReplicas, st.AvailableReplicas)
	}
	pods, err := w.set.Pods.Namespace(ns).List(ctx, meta.ListOptions{LabelSelector: "app=" + web})
	if err != nil {
		return err
	}
	running := 0
	img := d.Spec.Template.Spec.Containers[0].Image
	for _, p := range pods.Items {
		if p.Status.Phase == corev1.PodRunning && p.DeletionTimestamp == nil && p.Spec.Containers[0].Image == img {
			running++
		}
	}
	if running != int(n) {
		return fmt.Errorf("%d of %d pods Running %s", running, n, img)
	}
	return nil
}

func ignoreNotFound(err error) error {
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}

// checkCronJob checks that the every-minute CronJob was scheduled within
// cronLate and keeps no more Jobs than its history limits and one active.
func (w *Workload) checkCronJob(ctx context.Context) {
	if time.Since(w.started) < cronLate {
		return
	}
	_ = w.waitFor(ctx, "cronjob schedules", func() error {
		cj, err := w.set.CronJobs.Namespace(ns).Get(ctx, "tick", meta.GetOptions{})
		if err != nil {
			return err
		}
		if cj.Status.LastScheduleTime == nil {
			return fmt.Errorf("never scheduled")
		}
		if late := time.Since(cj.Status.LastScheduleTime.Time); late > cronLate {
			return fmt.Errorf("last scheduled %v ago", late.Round(time.Second))
		}
		jobs, err := w.set.Jobs.Namespace(ns).List(ctx, meta.ListOptions{})
		if err != nil {
			return err
		}
		owned := 0
		for _, j := range jobs.Items {
			for _, o := range j.OwnerReferences {
				if o.Kind == "CronJob" && o.Name == "tick" {
					owned++
				}
			}
		}
		if owned > 3 {
			return fmt.Errorf("%d jobs of the cronjob kept, want at most 3", owned)
		}
		return nil
	})
}
