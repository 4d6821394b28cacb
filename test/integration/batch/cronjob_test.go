package batch_test

import (
	"slices"
	"testing"
	"time"

	batchv1 "platform.io/client/api/batch/v1"
	batchv1beta1 "platform.io/client/api/batch/v1beta1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/client"

	"platform.io/platform/pkg/component/daemon"
	"platform.io/platform/pkg/controller"
	"platform.io/platform/pkg/controller/cronjob"
)

// cronJobNames lists the names of the Jobs in the namespace, live.
func jobNames(t *testing.T, d *daemon.Deps) []string {
	t.Helper()
	l, err := d.Clients.Jobs.Namespace(ns).List(t.Context(), meta.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, j := range l.Items {
		if j.DeletionTimestamp == nil {
			out = append(out, j.Name)
		}
	}
	slices.Sort(out)
	return out
}

// completeJob marks the Job Complete, as the job loop would.
func completeJob(t *testing.T, d *daemon.Deps, name string, at time.Time) {
	t.Helper()
	j, err := d.Clients.Jobs.Namespace(ns).Get(t.Context(), name, meta.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ts := meta.NewTime(at)
	j.Status.StartTime, j.Status.CompletionTime = &ts, &ts
	j.Status.Succeeded = 1
	j.Status.Conditions = []batchv1.JobCondition{{Type: batchv1.JobComplete, Status: corev1.ConditionTrue, LastTransitionTime: ts}}
	if _, err := d.Clients.Jobs.Namespace(ns).UpdateStatus(t.Context(), j, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
}

// TestCronJob_V1beta1Forbid: a CronJob created in batch/v1beta1 runs on a
// fake clock: one Job per minute slot, named after the slot; Forbid skips
// a slot that comes while the prior Job runs (it never starts late); a
// finished Job leaves status.active and, with an explicit
// successfulJobsHistoryLimit of 0, is deleted.
func TestCronJob_V1beta1Forbid(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	d := startDeps(t)
	clock := &fakeClock{now: time.Now()}
	loop, err := cronjob.New(controller.Context{Deps: d}, cronjob.NewOptions(), clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	runLoops(t, ctx, d, loop)
	zero := int32(0)
	in := &batchv1beta1.CronJob{
		ObjectMeta: meta.ObjectMeta{Name: "tick", Namespace: ns},
		Spec: batchv1beta1.CronJobSpec{Schedule: "* * * * *", ConcurrencyPolicy: batchv1beta1.ForbidConcurrent,
			SuccessfulJobsHistoryLimit: &zero,
			JobTemplate:                batchv1beta1.JobTemplateSpec{Spec: batchv1.JobSpec{Template: podTemplate()}}},
	}
	created, err := d.Clients.CronJobsV1beta1.Namespace(ns).Create(ctx, in, meta.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	slot1 := created.CreationTimestamp.Truncate(time.Minute).Add(time.Minute)
	clock.Set(slot1.Add(5 * time.Second))
	loop.Enqueue(ns + "/tick")
	first := cronjob.JobName("tick", slot1)
	eventually(t, ctx, "the first slot's job", func() (bool, error) {
		cj, err := d.Clients.CronJobsV1beta1.Namespace(ns).Get(ctx, "tick", meta.GetOptions{})
		return err == nil && len(cj.Status.Active) == 1 && cj.Status.Active[0].Name == first &&
			cj.Status.LastScheduleTime != nil && cj.Status.LastScheduleTime.Equal(slot1), err
	})
	if got := jobNames(t, d); !slices.Equal(got, []string{first}) {
		t.Fatalf("jobs %v, want [%s]", got, first)
	}

	clock.Set(slot1.Add(time.Minute + 5*time.Second))
	loop.Enqueue(ns + "/tick")
	eventually(t, ctx, "JobAlreadyActive", func() (bool, error) {
		ev, err := events(ctx, d, "tick")
		return ev["JobAlreadyActive"] > 0, err
	})
	if got := jobNames(t, d); !slices.Equal(got, []string{first}) {
		t.Fatalf("jobs under Forbid %v, want [%s]", got, first)
	}

	// The first Job finishes after the second slot came: as the spec says,
	// Forbid skips that run instead of starting it late.
	completeJob(t, d, first, slot1.Add(time.Minute+30*time.Second))
	clock.Set(slot1.Add(time.Minute + 35*time.Second))
	loop.Enqueue(ns + "/tick")
	eventually(t, ctx, "the first job finished and deleted by the limit of 0", func() (bool, error) {
		cj, err := d.Clients.CronJobs.Namespace(ns).Get(ctx, "tick", meta.GetOptions{})
		return err == nil && len(jobNames(t, d)) == 0 && len(cj.Status.Active) == 0 &&
			cj.Status.LastSuccessfulTime != nil, err
	})
	if cj, err := d.Clients.CronJobs.Namespace(ns).Get(ctx, "tick", meta.GetOptions{}); err != nil || !cj.Status.LastScheduleTime.Equal(slot1) {
		t.Fatalf("the skipped second slot was scheduled: %v %v", cj.Status.LastScheduleTime, err)
	}
	// The third slot comes with nothing running: it starts.
	third := cronjob.JobName("tick", slot1.Add(2*time.Minute))
	clock.Set(slot1.Add(2*time.Minute + 5*time.Second))
	loop.Enqueue(ns + "/tick")
	eventually(t, ctx, "the third slot's job", func() (bool, error) {
		cj, err := d.Clients.CronJobs.Namespace(ns).Get(ctx, "tick", meta.GetOptions{})
		return err == nil && slices.Equal(jobNames(t, d), []string{third}) && len(cj.Status.Active) == 1, err
	})
	eventually(t, ctx, "the events", func() (bool, error) {
		ev, err := events(ctx, d, "tick")
		return ev["SuccessfulCreate"] == 2 && ev["SawCompletedJob"] == 1 && ev["SuccessfulDelete"] == 1, err
	})
}

// TestCronJob_ReplaceAndDeadline: Replace deletes the running Job for the
// next slot's; a slot older than startingDeadlineSeconds is skipped with
// MissSchedule; suspend stops later slots only.
func TestCronJob_ReplaceAndDeadline(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	d := startDeps(t)
	clock := &fakeClock{now: time.Now()}
	loop, err := cronjob.New(controller.Context{Deps: d}, cronjob.NewOptions(), clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	runLoops(t, ctx, d, loop)
	deadline := int64(30)
	in := &batchv1.CronJob{
		ObjectMeta: meta.ObjectMeta{Name: "swap", Namespace: ns},
		Spec: batchv1.CronJobSpec{Schedule: "*/1 * * * *", ConcurrencyPolicy: batchv1.ReplaceConcurrent,
			StartingDeadlineSeconds: &deadline,
			JobTemplate:             batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{Template: podTemplate()}}},
	}
	created, err := d.Clients.CronJobs.Namespace(ns).Create(ctx, in, meta.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	start := created.CreationTimestamp.Truncate(time.Minute)
	// The first slot is missed by more than the deadline: skipped.
	clock.Set(start.Add(time.Minute + 45*time.Second))
	loop.Enqueue(ns + "/swap")
	eventually(t, ctx, "MissSchedule", func() (bool, error) {
		ev, err := events(ctx, d, "swap")
		return ev["MissSchedule"] == 1, err
	})
	if got := jobNames(t, d); len(got) != 0 {
		t.Fatalf("jobs after a missed slot: %v", got)
	}
	slot2 := start.Add(2 * time.Minute)
	clock.Set(slot2.Add(time.Second))
	loop.Enqueue(ns + "/swap")
	eventually(t, ctx, "the second slot's job", func() (bool, error) {
		return slices.Equal(jobNames(t, d), []string{cronjob.JobName("swap", slot2)}), nil
	})
	slot3 := start.Add(3 * time.Minute)
	clock.Set(slot3.Add(time.Second))
	loop.Enqueue(ns + "/swap")
	eventually(t, ctx, "the third slot's job replacing the second", func() (bool, error) {
		cj, err := d.Clients.CronJobs.Namespace(ns).Get(ctx, "swap", meta.GetOptions{})
		return err == nil && slices.Equal(jobNames(t, d), []string{cronjob.JobName("swap", slot3)}) &&
			len(cj.Status.Active) == 1 && cj.Status.Active[0].Name == cronjob.JobName("swap", slot3), err
	})

	cj, err := d.Clients.CronJobs.Namespace(ns).Get(ctx, "swap", meta.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	yes := true
	cj.Spec.Suspend = &yes
	if _, err := d.Clients.CronJobs.Namespace(ns).Update(ctx, cj, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	// The loop reads its informer's cache, which can trail the API server:
	// wait until the cache has the suspension before the next slot comes.
	inf, err := client.Inform(d.Informers, d.Clients.CronJobs)
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, ctx, "the suspension seen by the loop's informer", func() (bool, error) {
		cj, err := inf.Lister().Namespace(ns).Get("swap")
		return err == nil && cj.Spec.Suspend != nil && *cj.Spec.Suspend, nil
	})
	clock.Set(start.Add(4*time.Minute + time.Second))
	loop.Enqueue(ns + "/swap")
	// Give the loop a bounded chance to (wrongly) act, then check.
	deadlineAt := time.Now().Add(time.Second)
	eventually(t, ctx, "a quiet second", func() (bool, error) {
		if got := jobNames(t, d); !slices.Equal(got, []string{cronjob.JobName("swap", slot3)}) {
			t.Fatalf("jobs while suspended: %v", got)
		}
		return time.Now().After(deadlineAt), nil
	})
}
