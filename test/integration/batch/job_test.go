package batch_test

import (
	"testing"
	"time"

	batchv1 "platform.io/client/api/batch/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/controller"
	"platform.io/platform/pkg/controller/job"
)

// TestJob_RunsToCompletion: a Job of 3 completions with parallelism 2 runs
// two pods, then one more once they succeed, then is Complete.
func TestJob_RunsToCompletion(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	d := startDeps(t)
	loop, err := job.New(controller.Context{Deps: d}, job.NewOptions(), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	runLoops(t, ctx, d, loop)
	j, err := d.Clients.Jobs.Namespace(ns).Create(ctx, newJob("pi", 3, 2, 6), meta.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var pods []corev1.Pod
	eventually(t, ctx, "two pods", func() (bool, error) {
		pods, err = jobPods(ctx, d, "pi")
		return len(pods) == 2, err
	})
	for _, p := range pods {
		if ref := p.OwnerReferences; len(ref) != 1 || ref[0].UID != j.UID || ref[0].Controller == nil || !*ref[0].Controller ||
			p.Labels["controller-uid"] != string(j.UID) || p.Labels["job-name"] != "pi" {
			t.Fatalf("pod %s: owners %+v labels %v", p.Name, ref, p.Labels)
		}
	}
	eventually(t, ctx, "active 2 in the status", func() (bool, error) {
		got, err := d.Clients.Jobs.Namespace(ns).Get(ctx, "pi", meta.GetOptions{})
		return err == nil && got.Status.Active == 2 && got.Status.StartTime != nil, err
	})
	for _, p := range pods {
		if err := finishPod(ctx, d, p, corev1.PodSucceeded, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	eventually(t, ctx, "a third pod", func() (bool, error) {
		pods, err = jobPods(ctx, d, "pi")
		return len(pods) == 3, err
	})
	for _, p := range pods {
		if p.Status.Phase != corev1.PodSucceeded {
			if err := finishPod(ctx, d, p, corev1.PodSucceeded, time.Now()); err != nil {
				t.Fatal(err)
			}
		}
	}
	eventually(t, ctx, "the job Complete", func() (bool, error) {
		got, err := d.Clients.Jobs.Namespace(ns).Get(ctx, "pi", meta.GetOptions{})
		return err == nil && hasCondition(got, batchv1.JobComplete, "") && got.Status.Succeeded == 3 &&
			got.Status.Active == 0 && got.Status.CompletionTime != nil, err
	})
	eventually(t, ctx, "the events", func() (bool, error) {
		ev, err := events(ctx, d, "pi")
		return ev["SuccessfulCreate"] == 3 && ev["Completed"] == 1, err
	})
}

// TestJob_BackoffLimitExceeded: with backoffLimit 1 the second failure
// fails the Job; the pod after the first failure comes only once the
// backoff has passed.
func TestJob_BackoffLimitExceeded(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	d := startDeps(t)
	loop, err := job.New(controller.Context{Deps: d}, job.NewOptions(), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	runLoops(t, ctx, d, loop)
	if _, err := d.Clients.Jobs.Namespace(ns).Create(ctx, newJob("flaky", 1, 1, 1), meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	var pods []corev1.Pod
	eventually(t, ctx, "the first pod", func() (bool, error) {
		pods, err = jobPods(ctx, d, "flaky")
		return len(pods) == 1, err
	})
	// Failed long enough ago that the 10s backoff has passed.
	if err := finishPod(ctx, d, pods[0], corev1.PodFailed, time.Now().Add(-time.Minute)); err != nil {
		t.Fatal(err)
	}
	eventually(t, ctx, "a replacement pod", func() (bool, error) {
		pods, err = jobPods(ctx, d, "flaky")
		return len(pods) == 2, err
	})
	for _, p := range pods {
		if p.Status.Phase != corev1.PodFailed {
			if err := finishPod(ctx, d, p, corev1.PodFailed, time.Now()); err != nil {
				t.Fatal(err)
			}
		}
	}
	eventually(t, ctx, "the job Failed", func() (bool, error) {
		got, err := d.Clients.Jobs.Namespace(ns).Get(ctx, "flaky", meta.GetOptions{})
		return err == nil && hasCondition(got, batchv1.JobFailed, "BackoffLimitExceeded") && got.Status.Failed == 2, err
	})
	if pods, err := jobPods(ctx, d, "flaky"); err != nil || len(pods) != 2 {
		t.Errorf("pods after the failure: %d, %v", len(pods), err)
	}
}

// TestJob_DeadlineAndSuspend: a suspended Job runs no pods; resumed, it
// runs one, and past activeDeadlineSeconds it fails with DeadlineExceeded
// and its pod is deleted.
func TestJob_DeadlineAndSuspend(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	d := startDeps(t)
	loop, err := job.New(controller.Context{Deps: d}, job.NewOptions(), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	runLoops(t, ctx, d, loop)
	in := newJob("slow", 1, 1, 6)
	yes, deadline := true, int64(2)
	in.Spec.Suspend, in.Spec.ActiveDeadlineSeconds = &yes, &deadline
	if _, err := d.Clients.Jobs.Namespace(ns).Create(ctx, in, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, ctx, "Suspended", func() (bool, error) {
		got, err := d.Clients.Jobs.Namespace(ns).Get(ctx, "slow", meta.GetOptions{})
		return err == nil && hasCondition(got, batchv1.JobSuspended, "JobSuspended"), err
	})
	if pods, err := jobPods(ctx, d, "slow"); err != nil || len(pods) != 0 {
		t.Fatalf("pods of a suspended job: %d, %v", len(pods), err)
	}
	got, err := d.Clients.Jobs.Namespace(ns).Get(ctx, "slow", meta.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	no := false
	got.Spec.Suspend = &no
	if _, err := d.Clients.Jobs.Namespace(ns).Update(ctx, got, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, ctx, "DeadlineExceeded", func() (bool, error) {
		got, err := d.Clients.Jobs.Namespace(ns).Get(ctx, "slow", meta.GetOptions{})
		return err == nil && hasCondition(got, batchv1.JobFailed, "DeadlineExceeded"), err
	})
	eventually(t, ctx, "the pod deleted", func() (bool, error) {
		pods, err := jobPods(ctx, d, "slow")
		return len(pods) == 0, err
	})
}
