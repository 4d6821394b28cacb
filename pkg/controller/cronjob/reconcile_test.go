package cronjob

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/zap"

	batchv1 "platform.io/client/api/batch/v1"
	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/informer"
)

// fakeWriter records writes over a map of Jobs.
type fakeWriter struct {
	jobs    map[string]*batchv1.Job
	cronJob *batchv1.CronJob // the server's copy
	actions []string
	status  *batchv1.CronJob
	serial  int
}

func (w *fakeWriter) CreateJob(_ context.Context, j *batchv1.Job) (*batchv1.Job, error) {
	w.actions = append(w.actions, "create "+j.Name)
	if _, ok := w.jobs[j.Name]; ok {
		return nil, apierrors.NewAlreadyExists(batchv1.Resource("jobs"), j.Name)
	}
	w.serial++
	out := *j
	out.UID = meta.UID(fmt.Sprintf("job-uid-%d", w.serial))
	w.jobs[j.Name] = &out
	return &out, nil
}

func (w *fakeWriter) GetJob(_ context.Context, _, name string) (*batchv1.Job, error) {
	if j, ok := w.jobs[name]; ok {
		return j, nil
	}
	return nil, apierrors.NewNotFound(batchv1.Resource("jobs"), name)
}

func (w *fakeWriter) DeleteJob(_ context.Context, _, name string) error {
	w.actions = append(w.actions, "delete "+name)
	if _, ok := w.jobs[name]; !ok {
		return apierrors.NewNotFound(batchv1.Resource("jobs"), name)
	}
	delete(w.jobs, name)
	return nil
}

func (w *fakeWriter) GetCronJob(context.Context, string, string) (*batchv1.CronJob, error) {
	return w.cronJob, nil
}

func (w *fakeWriter) UpdateCronJobStatus(_ context.Context, cj *batchv1.CronJob) error {
	w.status = cj
	return nil
}

// fakeRecorder keeps event reasons.
type fakeRecorder struct{ reasons []string }

func (f *fakeRecorder) Event(_ any, _, reason, _ string) { f.reasons = append(f.reasons, reason) }
func (f *fakeRecorder) Eventf(_ any, _, reason, _ string, _ ...any) {
	f.reasons = append(f.reasons, reason)
}
func (f *fakeRecorder) AnnotatedEventf(_ any, _ map[string]string, _, reason, _ string, _ ...any) {
	f.reasons = append(f.reasons, reason)
}

type cjOpt func(*batchv1.CronJob)

func makeCronJob(opts ...cjOpt) *batchv1.CronJob {
	cj := &batchv1.CronJob{
		ObjectMeta: meta.ObjectMeta{Name: "cj", Namespace: "ns", UID: "cj-uid", ResourceVersion: "1",
			CreationTimestamp: meta.NewTime(t0.Add(time.Second))},
		Spec: batchv1.CronJobSpec{Schedule: "0 * * * *", ConcurrencyPolicy: batchv1.AllowConcurrent},
	}
	for _, o := range opts {
		o(cj)
	}
	return cj
}

func policy(p batchv1.ConcurrencyPolicy) cjOpt {
	return func(c *batchv1.CronJob) { c.Spec.ConcurrencyPolicy = p }
}
func lastRun(t time.Time) cjOpt {
	return func(c *batchv1.CronJob) { ts := meta.NewTime(t); c.Status.LastScheduleTime = &ts }
}
func limits(ok, failed *int32) cjOpt {
	return func(c *batchv1.CronJob) {
		c.Spec.SuccessfulJobsHistoryLimit, c.Spec.FailedJobsHistoryLimit = ok, failed
	}
}

// ownedJob is a Job of the CronJob for the slot at slot, finished with
// cond when cond is not empty.
func ownedJob(slot time.Time, cond batchv1.JobConditionType) *batchv1.Job {
	yes := true
	name := JobName("cj", slot)
	j := &batchv1.Job{ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "ns", UID: meta.UID("uid-" + name),
		CreationTimestamp: meta.NewTime(slot),
		OwnerReferences:   []meta.OwnerReference{{Kind: "CronJob", Name: "cj", UID: "cj-uid", Controller: &yes}}}}
	st := meta.NewTime(slot)
	j.Status.StartTime = &st
	if cond != "" {
		end := meta.NewTime(slot.Add(time.Minute))
		j.Status.Conditions = []batchv1.JobCondition{{Type: cond, Status: corev1.ConditionTrue}}
		if cond == batchv1.JobComplete {
			j.Status.CompletionTime = &end
		}
	}
	return j
}

func activeRef(j *batchv1.Job) cjOpt {
	return func(c *batchv1.CronJob) {
		c.Status.Active = append(c.Status.Active, corev1.ObjectReference{Kind: "Job", Namespace: "ns", Name: j.Name, UID: j.UID})
	}
}

type result struct {
	Actions  []string
	Events   []string
	Active   []string
	LastRun  time.Time
	Requeue  time.Duration
	LastGood time.Time
}

func runSync(t *testing.T, cj *batchv1.CronJob, jobs []*batchv1.Job, now time.Time) result {
	t.Helper()
	cjs, js := informer.NewStore[*batchv1.CronJob](), informer.NewStore[*batchv1.Job]()
	cjs.Add(cj)
	w := &fakeWriter{jobs: map[string]*batchv1.Job{}, cronJob: cj}
	for _, j := range jobs {
		js.Add(j)
		w.jobs[j.Name] = j
	}
	rec := &fakeRecorder{}
	r := &reconciler{lg: zap.NewNop(), cronJobs: informer.NewLister(cjs, batchv1.Resource("cronjobs")),
		jobs: informer.NewLister(js, batchv1.Resource("jobs")), w: w, rec: rec,
		now: func() time.Time { return now }, reported: map[meta.UID]time.Time{}}
	res, err := r.Reconcile(context.Background(), "ns/cj")
	if err != nil {
		t.Fatalf("Reconcile: %v", err)
	}
	out := result{Actions: w.actions, Events: rec.reasons, Requeue: res.RequeueAfter}
	st := cj.Status
	if w.status != nil {
		st = w.status.Status
	}
	for _, a := range st.Active {
		out.Active = append(out.Active, a.Name)
	}
	if st.LastScheduleTime != nil {
		out.LastRun = st.LastScheduleTime.Time.UTC()
	}
	if st.LastSuccessfulTime != nil {
		out.LastGood = st.LastSuccessfulTime.Time.UTC()
	}
	return out
}

func TestReconcile(t *testing.T) {
	h1, h2 := t0.Add(time.Hour), t0.Add(2*time.Hour)
	after := func(t time.Time) time.Time { return t.Add(10 * time.Second) }
	nextIn := func(now, next time.Time) time.Duration { return next.Sub(now) + 100*time.Millisecond }
	name := func(t time.Time) string { return JobName("cj", t) }
	running := ownedJob(h1, "")
	ranAcross := ownedJob(h1, batchv1.JobComplete)
	ranAcross.Status.CompletionTime = ptr(meta.NewTime(h2.Add(5 * time.Minute)))
	i32 := func(v int32) *int32 { return &v }
	cases := []struct {
		name string
		cj   *batchv1.CronJob
		jobs []*batchv1.Job
		now  time.Time
		want result
	}{
		{name: "not due", cj: makeCronJob(), now: t0.Add(30 * time.Minute),
			want: result{Requeue: nextIn(t0.Add(30*time.Minute), h1)}},
		{name: "due starts the slot's job", cj: makeCronJob(), now: after(h1),
			want: result{Actions: []string{"create " + name(h1)}, Events: []string{"SuccessfulCreate"},
				Active: []string{name(h1)}, LastRun: h1, Requeue: nextIn(after(h1), h2)}},
		{name: "suspended starts nothing", cj: makeCronJob(func(c *batchv1.CronJob) { c.Spec.Suspend = ptr(true) }), now: after(h1)},
		{name: "Allow runs beside an active job", cj: makeCronJob(lastRun(h1), activeRef(running)), jobs: []*batchv1.Job{running}, now: after(h2),
			want: result{Actions: []string{"create " + name(h2)}, Events: []string{"SuccessfulCreate"},
				Active: []string{name(h1), name(h2)}, LastRun: h2, Requeue: nextIn(after(h2), t0.Add(3*time.Hour))}},
		{name: "Forbid skips while one is active", cj: makeCronJob(policy(batchv1.ForbidConcurrent), lastRun(h1), activeRef(running)),
			jobs: []*batchv1.Job{running}, now: after(h2),
			want: result{Events: []string{"JobAlreadyActive"}, Active: []string{name(h1)}, LastRun: h1, Requeue: nextIn(after(h2), t0.Add(3*time.Hour))}},
		{name: "Forbid skips a slot that came while the prior job ran", cj: makeCronJob(policy(batchv1.ForbidConcurrent), lastRun(h1)),
			jobs: []*batchv1.Job{ranAcross}, now: h2.Add(10 * time.Minute),
			want: result{Events: []string{"JobAlreadyActive"}, LastRun: h1, LastGood: h2.Add(5 * time.Minute), Requeue: nextIn(h2.Add(10*time.Minute), t0.Add(3*time.Hour))}},
		{name: "Forbid runs a slot that came after the prior job finished", cj: makeCronJob(policy(batchv1.ForbidConcurrent), lastRun(h1)),
			jobs: []*batchv1.Job{ownedJob(h1, batchv1.JobComplete)}, now: after(h2),
			want: result{Actions: []string{"create " + name(h2)}, Events: []string{"SuccessfulCreate"},
				Active: []string{name(h2)}, LastRun: h2, LastGood: h1.Add(time.Minute), Requeue: nextIn(after(h2), t0.Add(3*time.Hour))}},
		{name: "Replace deletes the active job first", cj: makeCronJob(policy(batchv1.ReplaceConcurrent), lastRun(h1), activeRef(running)),
			jobs: []*batchv1.Job{running}, now: after(h2),
			want: result{Actions: []string{"delete " + name(h1), "create " + name(h2)}, Events: []string{"SuccessfulDelete", "SuccessfulCreate"},
				Active: []string{name(h2)}, LastRun: h2, Requeue: nextIn(after(h2), t0.Add(3*time.Hour))}},
		{name: "finished job leaves active", cj: makeCronJob(lastRun(h1), activeRef(ownedJob(h1, batchv1.JobComplete))),
			jobs: []*batchv1.Job{ownedJob(h1, batchv1.JobComplete)}, now: after(h1),
			want: result{Events: []string{"SawCompletedJob"}, LastRun: h1, LastGood: h1.Add(time.Minute), Requeue: nextIn(after(h1), h2)}},
		{name: "slot already created counts as done", cj: makeCronJob(), jobs: []*batchv1.Job{running}, now: after(h1),
			want: result{Actions: []string{"create " + name(h1)}, Events: []string{"UnexpectedJob"},
				Active: []string{name(h1)}, LastRun: h1, Requeue: nextIn(after(h1), h2)}},
		{name: "missed beyond the deadline", cj: makeCronJob(func(c *batchv1.CronJob) { c.Spec.StartingDeadlineSeconds = ptr[int64](5) }),
			now: after(h1), want: result{Events: []string{"MissSchedule"}, Requeue: nextIn(after(h1), h2)}},
		{name: "too many missed runs only the latest", cj: makeCronJob(func(c *batchv1.CronJob) { c.Spec.Schedule = "* * * * *" }),
			now: after(t0.Add(5 * time.Hour)),
			want: result{Actions: []string{"create " + name(t0.Add(5*time.Hour))}, Events: []string{"TooManyMissedTimes", "SuccessfulCreate"},
				Active: []string{name(t0.Add(5 * time.Hour))}, LastRun: t0.Add(5 * time.Hour), Requeue: nextIn(after(t0.Add(5*time.Hour)), t0.Add(5*time.Hour+time.Minute))}},
		{name: "unset history limits keep every finished job", cj: makeCronJob(lastRun(h2), limits(nil, nil)),
			jobs: []*batchv1.Job{ownedJob(t0, batchv1.JobComplete), ownedJob(h1, batchv1.JobComplete), ownedJob(h2, batchv1.JobFailed)}, now: after(h2),
			want: result{LastRun: h2, LastGood: h1.Add(time.Minute), Requeue: nextIn(after(h2), t0.Add(3*time.Hour))}},
		{name: "explicit zero deletes every finished job of its kind", cj: makeCronJob(lastRun(h2), limits(i32(0), nil)),
			jobs: []*batchv1.Job{ownedJob(t0, batchv1.JobComplete), ownedJob(h1, batchv1.JobComplete), ownedJob(h2, batchv1.JobFailed)}, now: after(h2),
			want: result{Actions: []string{"delete " + name(t0), "delete " + name(h1)}, Events: []string{"SuccessfulDelete", "SuccessfulDelete"},
				LastRun: h2, LastGood: h1.Add(time.Minute), Requeue: nextIn(after(h2), t0.Add(3*time.Hour))}},
		{name: "limits keep the newest", cj: makeCronJob(lastRun(h2), limits(i32(1), i32(1))),
			jobs: []*batchv1.Job{ownedJob(t0, batchv1.JobFailed), ownedJob(h1, batchv1.JobComplete), ownedJob(h2, batchv1.JobFailed)}, now: after(h2),
			want: result{Actions: []string{"delete " + name(t0)}, Events: []string{"SuccessfulDelete"},
				LastRun: h2, LastGood: h1.Add(time.Minute), Requeue: nextIn(after(h2), t0.Add(3*time.Hour))}},
		{name: "unparseable schedule", cj: makeCronJob(func(c *batchv1.CronJob) { c.Spec.Schedule = "61 * * * *" }), now: after(h1),
			want: result{Events: []string{"UnparseableSchedule"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := runSync(t, tc.cj, tc.jobs, tc.now)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("sync (-want +got):\n%s", diff)
			}
		})
	}
}

// TestReconcile_SuspendAffectsLaterRunsOnly: suspending keeps the job
// already running; resuming after missed slots runs only the latest.
func TestReconcile_SuspendAffectsLaterRunsOnly(t *testing.T) {
	running := ownedJob(t0.Add(time.Hour), "")
	cj := makeCronJob(lastRun(t0.Add(time.Hour)), activeRef(running), func(c *batchv1.CronJob) { c.Spec.Suspend = ptr(true) })
	got := runSync(t, cj, []*batchv1.Job{running}, t0.Add(3*time.Hour+time.Second))
	if len(got.Actions) != 0 || !slices.Equal(got.Active, []string{running.Name}) {
		t.Fatalf("while suspended: %+v", got)
	}
	cj.Spec.Suspend = ptr(false)
	got = runSync(t, cj, []*batchv1.Job{running}, t0.Add(3*time.Hour+time.Second))
	if want := []string{"create " + JobName("cj", t0.Add(3*time.Hour))}; !slices.Equal(got.Actions, want) {
		t.Fatalf("after resuming: %v, want %v", got.Actions, want)
	}
}

func ptr[T any](v T) *T { return &v }
