package job

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	batchv1 "platform.io/client/api/batch/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

var t0 = time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)

type jobOpt func(*batchv1.Job)

func makeJob(opts ...jobOpt) *batchv1.Job {
	j := &batchv1.Job{
		ObjectMeta: meta.ObjectMeta{Name: "pi", Namespace: "ns", UID: "job-uid"},
		Spec: batchv1.JobSpec{
			Parallelism: ptr[int32](1), Completions: ptr[int32](1), BackoffLimit: ptr[int32](6),
			Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{RestartPolicy: corev1.RestartPolicyNever}},
		},
	}
	for _, o := range opts {
		o(j)
	}
	return j
}

func completions(n *int32) jobOpt { return func(j *batchv1.Job) { j.Spec.Completions = n } }
func parallelism(n int32) jobOpt  { return func(j *batchv1.Job) { j.Spec.Parallelism = &n } }
func backoffLimit(n int32) jobOpt { return func(j *batchv1.Job) { j.Spec.BackoffLimit = &n } }
func started(at time.Time) jobOpt {
	return func(j *batchv1.Job) { t := meta.NewTime(at); j.Status.StartTime = &t }
}
func deadline(s int64) jobOpt { return func(j *batchv1.Job) { j.Spec.ActiveDeadlineSeconds = &s } }
func suspend(b bool) jobOpt   { return func(j *batchv1.Job) { j.Spec.Suspend = &b } }
func onFailure() jobOpt {
	return func(j *batchv1.Job) { j.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyOnFailure }
}

// makePod returns a pod in phase ph that finished (if it did) at end.
func makePod(name string, ph corev1.PodPhase, end time.Time) *corev1.Pod {
	p := &corev1.Pod{ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "ns", CreationTimestamp: meta.NewTime(t0.Add(-time.Hour))}}
	p.Status.Phase = ph
	if ph == corev1.PodSucceeded || ph == corev1.PodFailed {
		p.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "c",
			State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{FinishedAt: meta.NewTime(end)}}}}
	}
	if ph == corev1.PodRunning {
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}
	}
	return p
}

func withRestarts(p *corev1.Pod, n int32) *corev1.Pod {
	p.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "c", RestartCount: n}}
	return p
}

// outcome is the part of a plan the table checks.
type outcome struct {
	Active, Succeeded, Failed, Ready int32
	Create, Remove                   int
	Conditions                       []string // type=status/reason
	Events                           []string // reason
	Requeue                          time.Duration
}

func summarize(p plan) outcome {
	o := outcome{Active: p.status.Active, Succeeded: p.status.Succeeded, Failed: p.status.Failed,
		Create: p.create, Remove: len(p.remove), Requeue: p.requeue}
	if p.status.Ready != nil {
		o.Ready = *p.status.Ready
	}
	for _, c := range p.status.Conditions {
		o.Conditions = append(o.Conditions, string(c.Type)+"="+string(c.Status)+"/"+c.Reason)
	}
	for _, e := range p.events {
		o.Events = append(o.Events, e.reason)
	}
	return o
}

func TestDecide(t *testing.T) {
	running := func(n string) *corev1.Pod { return makePod(n, corev1.PodRunning, time.Time{}) }
	ok := func(n string, at time.Time) *corev1.Pod { return makePod(n, corev1.PodSucceeded, at) }
	bad := func(n string, at time.Time) *corev1.Pod { return makePod(n, corev1.PodFailed, at) }
	long := t0.Add(-time.Hour)
	cases := []struct {
		name string
		job  *batchv1.Job
		pods []*corev1.Pod
		want outcome
	}{
		{name: "new job creates one pod", job: makeJob(),
			want: outcome{Active: 1, Create: 1}},
		{name: "parallelism bounded by remaining completions", job: makeJob(completions(ptr[int32](5)), parallelism(3)),
			pods: []*corev1.Pod{ok("a", long), ok("b", long), ok("c", long)},
			want: outcome{Active: 2, Succeeded: 3, Create: 2}},
		{name: "all completions done", job: makeJob(completions(ptr[int32](2)), parallelism(2)),
			pods: []*corev1.Pod{ok("a", long), ok("b", long)},
			want: outcome{Succeeded: 2, Conditions: []string{"Complete=True/"}, Events: []string{"Completed"}}},
		{name: "work queue: one success, others still running, none added", job: makeJob(completions(nil), parallelism(3)),
			pods: []*corev1.Pod{ok("a", long), running("b")},
			want: outcome{Active: 1, Succeeded: 1, Ready: 1}},
		{name: "work queue: one success and none running completes", job: makeJob(completions(nil), parallelism(3)),
			pods: []*corev1.Pod{ok("a", long)},
			want: outcome{Succeeded: 1, Conditions: []string{"Complete=True/"}, Events: []string{"Completed"}}},
		{name: "too many active are removed", job: makeJob(parallelism(1)),
			pods: []*corev1.Pod{running("a"), running("b")},
			want: outcome{Active: 1, Ready: 1, Remove: 1}},
		{name: "failure waits 10s before re-creating", job: makeJob(),
			pods: []*corev1.Pod{bad("a", t0.Add(-4*time.Second))},
			want: outcome{Failed: 1, Requeue: 6 * time.Second}},
		{name: "backoff doubles per failure", job: makeJob(),
			pods: []*corev1.Pod{bad("a", t0.Add(-time.Minute)), bad("b", t0.Add(-30*time.Second)), bad("c", t0.Add(-5*time.Second))},
			want: outcome{Failed: 3, Requeue: 35 * time.Second}},
		{name: "backoff elapsed re-creates", job: makeJob(),
			pods: []*corev1.Pod{bad("a", t0.Add(-11*time.Second))},
			want: outcome{Active: 1, Failed: 1, Create: 1}},
		{name: "failures before a success do not back off", job: makeJob(completions(ptr[int32](2))),
			pods: []*corev1.Pod{bad("a", t0.Add(-9*time.Second)), ok("b", t0.Add(-2*time.Second))},
			want: outcome{Active: 1, Failed: 1, Succeeded: 1, Create: 1}},
		{name: "backoffLimit exceeded fails the job and removes active pods", job: makeJob(backoffLimit(1), parallelism(2), completions(ptr[int32](3))),
			pods: []*corev1.Pod{bad("a", long), bad("b", long), running("c")},
			want: outcome{Failed: 3, Remove: 1, Conditions: []string{"Failed=True/BackoffLimitExceeded"}, Events: []string{"BackoffLimitExceeded"}}},
		{name: "backoffLimit 0 fails at the first failure", job: makeJob(backoffLimit(0)),
			pods: []*corev1.Pod{bad("a", long)},
			want: outcome{Failed: 1, Conditions: []string{"Failed=True/BackoffLimitExceeded"}, Events: []string{"BackoffLimitExceeded"}}},
		{name: "OnFailure restarts reach the limit", job: makeJob(backoffLimit(3), onFailure()),
			pods: []*corev1.Pod{withRestarts(running("a"), 3)},
			want: outcome{Failed: 1, Remove: 1, Conditions: []string{"Failed=True/BackoffLimitExceeded"}, Events: []string{"BackoffLimitExceeded"}}},
		{name: "OnFailure restarts below the limit", job: makeJob(backoffLimit(3), onFailure()),
			pods: []*corev1.Pod{withRestarts(running("a"), 2)},
			want: outcome{Active: 1, Ready: 1}},
		{name: "deadline passed", job: makeJob(deadline(60), started(t0.Add(-time.Minute))),
			pods: []*corev1.Pod{running("a")},
			want: outcome{Failed: 1, Remove: 1, Conditions: []string{"Failed=True/DeadlineExceeded"}, Events: []string{"DeadlineExceeded"}}},
		{name: "deadline ahead requeues at it", job: makeJob(deadline(60), started(t0.Add(-20*time.Second))),
			pods: []*corev1.Pod{running("a")},
			want: outcome{Active: 1, Ready: 1, Requeue: 40 * time.Second}},
		{name: "suspended removes pods", job: makeJob(suspend(true), started(long)),
			pods: []*corev1.Pod{running("a")},
			want: outcome{Remove: 1, Conditions: []string{"Suspended=True/JobSuspended"}, Events: []string{"Suspended"}}},
		{name: "suspended ignores the deadline", job: makeJob(suspend(true), deadline(1), started(long)),
			want: outcome{Conditions: []string{"Suspended=True/JobSuspended"}, Events: []string{"Suspended"}}},
		{name: "counts never go down when pods are gone", job: func() *batchv1.Job {
			j := makeJob(completions(ptr[int32](4)), parallelism(1))
			j.Status.Succeeded, j.Status.Failed = 2, 1
			return j
		}(), pods: []*corev1.Pod{ok("c", long)},
			want: outcome{Active: 1, Succeeded: 2, Failed: 1, Create: 1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := summarize(decide(tc.job, tc.pods, t0))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("plan (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDecide_Resume(t *testing.T) {
	j := makeJob(suspend(true))
	p := decide(j, nil, t0)
	j.Status = p.status
	j.Spec.Suspend = ptr(false)
	later := t0.Add(time.Hour)
	p = decide(j, nil, later)
	got := summarize(p)
	want := outcome{Active: 1, Create: 1, Conditions: []string{"Suspended=False/JobResumed"}, Events: []string{"Resumed"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("plan (-want +got):\n%s", diff)
	}
	if p.status.StartTime == nil || !p.status.StartTime.Equal(later) {
		t.Errorf("start time %v, want %v", p.status.StartTime, later)
	}
}

func TestBackoffFor(t *testing.T) {
	for n, want := range map[int]time.Duration{1: 10 * time.Second, 2: 20 * time.Second, 3: 40 * time.Second,
		6: 320 * time.Second, 7: 6 * time.Minute, 20: 6 * time.Minute} {
		if got := backoffFor(n); got != want {
			t.Errorf("backoffFor(%d) = %v, want %v", n, got, want)
		}
	}
}

func TestRank(t *testing.T) {
	mk := func(name, node string, ph corev1.PodPhase, ready bool) *corev1.Pod {
		p := &corev1.Pod{ObjectMeta: meta.ObjectMeta{Name: name}, Spec: corev1.PodSpec{NodeName: node}}
		p.Status.Phase = ph
		if ready {
			p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}
		}
		return p
	}
	pods := []*corev1.Pod{
		mk("ready", "n1", corev1.PodRunning, true),
		mk("running", "n1", corev1.PodRunning, false),
		mk("pending", "n1", corev1.PodPending, false),
		mk("unscheduled", "", corev1.PodPending, false),
	}
	var got []string
	for _, p := range rank(pods) {
		got = append(got, p.Name)
	}
	if diff := cmp.Diff([]string{"unscheduled", "pending", "running", "ready"}, got); diff != "" {
		t.Errorf("rank (-want +got):\n%s", diff)
	}
}
