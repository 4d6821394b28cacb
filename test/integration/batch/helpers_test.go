// Package batch_test runs the job, cronjob, ttl-after-finished and podgc
// loops against a real API server. No node agent runs: the tests move pods
// and Jobs to their finished states themselves.
package batch_test

import (
	"context"
	"sync"
	"testing"
	"time"

	batchv1 "platform.io/client/api/batch/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/labels"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/component/daemon"
	"platform.io/platform/pkg/component/run"
	"platform.io/platform/test/integration/framework"
)

const ns = "default"

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// startDeps starts an API server and returns the controller manager's
// dependencies on it.
func startDeps(t *testing.T) *daemon.Deps {
	t.Helper()
	return framework.Start(t).Deps(t, "controller-manager")
}

// runLoops starts d's informers, waits for them, and runs the loops until
// the test ends.
func runLoops(t *testing.T, ctx context.Context, d *daemon.Deps, loops ...run.Runnable) {
	t.Helper()
	d.Informers.Start(ctx)
	if !d.Informers.WaitForCacheSync(ctx) {
		t.Fatal("informers did not sync")
	}
	var wg sync.WaitGroup
	loopCtx, cancel := context.WithCancel(ctx)
	for _, l := range loops {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := l.Run(loopCtx); err != nil {
				t.Errorf("loop: %v", err)
			}
		}()
	}
	t.Cleanup(func() { cancel(); wg.Wait() })
}

// eventually polls cond every 50ms until it holds or ctx ends.
func eventually(t *testing.T, ctx context.Context, what string, cond func() (bool, error)) {
	t.Helper()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	var lastErr error
	for {
		ok, err := cond()
		if ok && err == nil {
			return
		}
		lastErr = err
		select {
		case <-ctx.Done():
			t.Fatalf("timed out waiting for %s (last error: %v)", what, lastErr)
		case <-tick.C:
		}
	}
}

// fakeClock is a settable clock for the loops.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

func podTemplate() corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{Spec: corev1.PodSpec{
		RestartPolicy: corev1.RestartPolicyNever,
		Containers:    []corev1.Container{{Name: "work", Image: "busybox"}},
	}}
}

func newJob(name string, completions, parallelism, backoffLimit int32) *batchv1.Job {
	return &batchv1.Job{
		ObjectMeta: meta.ObjectMeta{Name: name, Namespace: ns},
		Spec: batchv1.JobSpec{Completions: &completions, Parallelism: &parallelism, BackoffLimit: &backoffLimit,
			Template: podTemplate()},
	}
}

// jobPods lists the pods of the Job, live.
func jobPods(ctx context.Context, d *daemon.Deps, job string) ([]corev1.Pod, error) {
	l, err := d.Clients.Pods.Namespace(ns).List(ctx, meta.ListOptions{
		LabelSelector: labels.Set{"batch.platform.io/job-name": job}.AsSelector().String()})
	if err != nil {
		return nil, err
	}
	return l.Items, nil
}

// finishPod moves the pod to phase (Succeeded or Failed) as a node would,
// its container terminated at end.
func finishPod(ctx context.Context, d *daemon.Deps, p corev1.Pod, phase corev1.PodPhase, end time.Time) error {
	code := int32(0)
	if phase == corev1.PodFailed {
		code = 1
	}
	p.Status.Phase = phase
	p.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "work", Image: "busybox",
		State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: code, FinishedAt: meta.NewTime(end)}}}}
	_, err := d.Clients.Pods.Namespace(ns).UpdateStatus(ctx, &p, meta.WriteOptions{})
	return err
}

func hasCondition(j *batchv1.Job, t batchv1.JobConditionType, reason string) bool {
	for _, c := range j.Status.Conditions {
		if c.Type == t && c.Status == corev1.ConditionTrue && c.Reason == reason {
			return true
		}
	}
	return false
}

// events returns the reasons of the events about the object name.
func events(ctx context.Context, d *daemon.Deps, name string) (map[string]int, error) {
	l, err := d.Clients.Events.Namespace(ns).List(ctx, meta.ListOptions{FieldSelector: "involvedObject.name=" + name})
	if err != nil {
		return nil, err
	}
	out := map[string]int{}
	for _, e := range l.Items {
		out[e.Reason] += int(e.Count)
	}
	return out, nil
}
