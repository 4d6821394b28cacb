package batch_test

import (
	"testing"
	"time"

	batchv1 "platform.io/client/api/batch/v1"
	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/controller"
	"platform.io/platform/pkg/controller/podgc"
	"platform.io/platform/pkg/controller/ttlafterfinished"
)

// TestTTLAfterFinished: a finished Job whose TTL has passed is deleted;
// one whose TTL is raised before it passes stays.
func TestTTLAfterFinished(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	d := startDeps(t)
	clock := &fakeClock{now: time.Now()}
	loop, err := ttlafterfinished.New(controller.Context{Deps: d}, ttlafterfinished.NewOptions(), clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	runLoops(t, ctx, d, loop)
	ttl := int32(60)
	for _, name := range []string{"short", "raised"} {
		j := newJob(name, 1, 1, 6)
		j.Spec.TTLSecondsAfterFinished = &ttl
		if _, err := d.Clients.Jobs.Namespace(ns).Create(ctx, j, meta.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		completeJob(t, d, name, clock.Now())
	}
	raised, err := d.Clients.Jobs.Namespace(ns).Get(ctx, "raised", meta.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	long := int32(3600)
	raised.Spec.TTLSecondsAfterFinished = &long
	if _, err := d.Clients.Jobs.Namespace(ns).Update(ctx, raised, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	clock.Set(clock.Now().Add(2 * time.Minute))
	loop.Enqueue(ns + "/short")
	loop.Enqueue(ns + "/raised")
	eventually(t, ctx, "the expired job deleted", func() (bool, error) {
		_, err := d.Clients.Jobs.Namespace(ns).Get(ctx, "short", meta.GetOptions{})
		return apierrors.IsNotFound(err), nil
	})
	got, err := d.Clients.Jobs.Namespace(ns).Get(ctx, "raised", meta.GetOptions{})
	if err != nil || got.DeletionTimestamp != nil {
		t.Fatalf("the job with a raised TTL: %v, %+v", err, got)
	}
	if !hasCondition(got, batchv1.JobComplete, "") {
		t.Fatalf("conditions %+v", got.Status.Conditions)
	}
}

// TestPodGC_OrphanedNode: pods bound to a node that does not exist are
// force-deleted after the quarantine; pods on an existing node stay, and
// terminated pods over the threshold go oldest first (created in name
// order, so the name breaks ties of the second-precision timestamps).
func TestPodGC_OrphanedNode(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	d := startDeps(t)
	if _, err := d.Clients.Nodes.Create(ctx, &corev1.Node{ObjectMeta: meta.ObjectMeta{Name: "alive"}}, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	mk := func(name, node string) {
		p := &corev1.Pod{ObjectMeta: meta.ObjectMeta{Name: name, Namespace: ns},
			Spec: corev1.PodSpec{NodeName: node, Containers: []corev1.Container{{Name: "c", Image: "busybox"}}}}
		if _, err := d.Clients.Pods.Namespace(ns).Create(ctx, p, meta.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	mk("orphan", "vanished")
	mk("kept", "alive")
	for _, n := range []string{"done-1", "done-2", "done-3"} {
		mk(n, "alive")
		p, err := d.Clients.Pods.Namespace(ns).Get(ctx, n, meta.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if err := finishPod(ctx, d, *p, corev1.PodSucceeded, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	gc, err := podgc.New(controller.Context{Deps: d}, &podgc.Options{Threshold: 1},
		podgc.Timing{Period: 100 * time.Millisecond, Quarantine: 300 * time.Millisecond, Now: time.Now})
	if err != nil {
		t.Fatal(err)
	}
	runLoops(t, ctx, d, gc)
	gone := func(name string) bool {
		_, err := d.Clients.Pods.Namespace(ns).Get(ctx, name, meta.GetOptions{})
		return apierrors.IsNotFound(err)
	}
	eventually(t, ctx, "the orphan and the two oldest terminated pods deleted", func() (bool, error) {
		return gone("orphan") && gone("done-1") && gone("done-2"), nil
	})
	for _, n := range []string{"kept", "done-3"} {
		if gone(n) {
			t.Errorf("%s was deleted", n)
		}
	}
}
