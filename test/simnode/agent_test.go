package simnode_test

import (
	"context"
	"regexp"
	"testing"
	"time"

	"go.uber.org/zap"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/api/resource"
	"platform.io/client/client"

	"platform.io/platform/test/integration/framework"
	"platform.io/platform/test/simnode"
)

// startAgent runs an agent of n nodes with short intervals against a new
// API server until the test ends.
func startAgent(t *testing.T, n int) (*simnode.Agent, *client.Set) {
	t.Helper()
	s := framework.Start(t)
	set := client.NewSet(s.RESTClient(t))
	cfg := simnode.Config{
		Nodes: n, NamePrefix: "sim-", Zones: []string{"a", "b"},
		CPU: resource.MustParse("2"), Memory: resource.MustParse("4Gi"), Pods: 10, Images: []string{"busybox:latest"},
		LeaseInterval: 200 * time.Millisecond, LeaseDuration: 2 * time.Second, StatusInterval: time.Hour,
		ReadinessDelay: 300 * time.Millisecond, JobPodDuration: 500 * time.Millisecond, Workers: 4,
	}
	a, err := simnode.New(zap.NewNop(), set, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("agent: %v", err)
		}
	})
	return a, set
}

// eventually polls cond until it holds or 20s pass.
func eventually(t *testing.T, what string, cond func() (bool, error)) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		ok, err := cond()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not reached (last error %v)", what, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func condition(node *corev1.Node, typ corev1.NodeConditionType) corev1.ConditionStatus {
	for _, c := range node.Status.Conditions {
		if c.Type == typ {
			return c.Status
		}
	}
	return ""
}

// TestNodesRegisterAndRenew: the agent registers its nodes ready, with
// labels, capacity and addresses, and renews one lease per node.
func TestNodesRegisterAndRenew(t *testing.T) {
	t.Parallel()
	a, set := startAgent(t, 3)
	ctx := ctxT(t)
	eventually(t, "three ready nodes", func() (bool, error) {
		l, err := set.Nodes.List(ctx, meta.ListOptions{})
		if err != nil || len(l.Items) != 3 {
			return false, err
		}
		for _, n := range l.Items {
			if condition(&n, corev1.NodeReady) != corev1.ConditionTrue {
				return false, nil
			}
		}
		return true, nil
	})
	node, err := set.Nodes.Get(ctx, "sim-1", meta.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if node.Labels[simnode.LabelZone] != "b" || node.Labels[simnode.LabelHostname] != "sim-1" || node.Labels[simnode.LabelOS] != "linux" {
		t.Errorf("labels %v", node.Labels)
	}
	if pods := node.Status.Allocatable[corev1.ResourcePods]; pods.Value() != 10 || len(node.Status.Addresses) == 0 || len(node.Status.Images) != 1 {
		t.Errorf("status %+v", node.Status)
	}
	renewed := func(name string) time.Time {
		l, err := set.Leases.Namespace(corev1.NamespaceNodeLease).Get(ctx, name, meta.GetOptions{})
		if err != nil || l.Spec.RenewTime == nil {
			return time.Time{}
		}
		return l.Spec.RenewTime.Time
	}
	for _, name := range a.NodeNames() {
		first := time.Time{}
		eventually(t, "lease of "+name+" renewed twice", func() (bool, error) {
			r := renewed(name)
			if first.IsZero() {
				first = r
			}
			return !r.IsZero() && r.After(first), nil
		})
	}
	l, err := set.Leases.Namespace(corev1.NamespaceNodeLease).Get(ctx, "sim-0", meta.GetOptions{})
	if err != nil || *l.Spec.HolderIdentity != "sim-0" || *l.Spec.LeaseDurationSeconds != 2 || len(l.OwnerReferences) != 1 {
		t.Errorf("lease %+v: %v", l, err)
	}
}

// TestStopAndResumeHeartbeat: a stopped node renews nothing; resumed, it
// renews again and reports itself ready over a status someone changed.
func TestStopAndResumeHeartbeat(t *testing.T) {
	t.Parallel()
	a, set := startAgent(t, 2)
	ctx := ctxT(t)
	leases := set.Leases.Namespace(corev1.NamespaceNodeLease)
	eventually(t, "lease of sim-0", func() (bool, error) {
		_, err := leases.Get(ctx, "sim-0", meta.GetOptions{})
		return err == nil, err
	})
	if err := a.StopHeartbeat("sim-0"); err != nil {
		t.Fatal(err)
	}
	if err := a.StopHeartbeat("nope"); err == nil {
		t.Error("stopping an unknown node succeeded")
	}
	// One renewal may be in flight when the stop lands.
	time.Sleep(300 * time.Millisecond)
	before, err := leases.Get(ctx, "sim-0", meta.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(800 * time.Millisecond)
	after, err := leases.Get(ctx, "sim-0", meta.GetOptions{})
	if err != nil || !after.Spec.RenewTime.Equal(before.Spec.RenewTime.Time) {
		t.Fatalf("a stopped node renewed its lease: %v -> %v (%v)", before.Spec.RenewTime, after.Spec.RenewTime, err)
	}
	node, err := set.Nodes.Get(ctx, "sim-0", meta.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range node.Status.Conditions {
		node.Status.Conditions[i].Status = corev1.ConditionUnknown
	}
	if _, err := set.Nodes.UpdateStatus(ctx, node, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := a.ResumeHeartbeat("sim-0"); err != nil {
		t.Fatal(err)
	}
	eventually(t, "renewal after resume", func() (bool, error) {
		l, err := leases.Get(ctx, "sim-0", meta.GetOptions{})
		return err == nil && l.Spec.RenewTime.After(before.Spec.RenewTime.Time), err
	})
	eventually(t, "ready again", func() (bool, error) {
		n, err := set.Nodes.Get(ctx, "sim-0", meta.GetOptions{})
		return err == nil && condition(n, corev1.NodeReady) == corev1.ConditionTrue, err
	})
}

func boundPod(name, node string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "default"},
		Spec: corev1.PodSpec{NodeName: node, RestartPolicy: corev1.RestartPolicyNever,
			Containers: []corev1.Container{{Name: "main", Image: "busybox:latest"}, {Name: "side", Image: "nginx:latest"}}},
	}
}

func podReady(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// TestPodsRunBecomeReadyAndGo: a bound pod runs, turns ready after the
// delay, and a graceful delete ends its containers and is confirmed.
func TestPodsRunBecomeReadyAndGo(t *testing.T) {
	t.Parallel()
	_, set := startAgent(t, 2)
	ctx := ctxT(t)
	pods := set.Pods.Namespace("default")
	p := boundPod("web", "sim-1")
	p.Spec.RestartPolicy = corev1.RestartPolicyAlways
	if _, err := pods.Create(ctx, p, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	var got *corev1.Pod
	eventually(t, "pod running and ready", func() (bool, error) {
		var err error
		got, err = pods.Get(ctx, "web", meta.GetOptions{})
		return err == nil && got.Status.Phase == corev1.PodRunning && podReady(got), err
	})
	st := got.Status
	if st.PodIP == "" || st.HostIP == "" || st.StartTime == nil || len(st.ContainerStatuses) != 2 {
		t.Fatalf("status %+v", st)
	}
	for _, cs := range st.ContainerStatuses {
		if !containerIDPattern.MatchString(cs.ContainerID) || cs.State.Running == nil || !cs.Ready || cs.ImageID == "" {
			t.Errorf("container %+v", cs)
		}
	}
	if ready := st.StartTime.Time; len(st.Conditions) < 4 || ready.IsZero() {
		t.Errorf("conditions %+v", st.Conditions)
	}
	// deletionTimestamp has second precision: a grace of 2s leaves at least 1s.
	grace := int64(2)
	if err := pods.Delete(ctx, "web", &meta.DeleteOptions{GracePeriodSeconds: &grace}); err != nil {
		t.Fatal(err)
	}
	sawTerminated := false
	eventually(t, "deletion confirmed", func() (bool, error) {
		p, err := pods.Get(ctx, "web", meta.GetOptions{})
		if apierrors.IsNotFound(err) {
			return true, nil
		}
		if err == nil && len(p.Status.ContainerStatuses) > 0 && p.Status.ContainerStatuses[0].State.Terminated != nil {
			sawTerminated = true
		}
		return false, err
	})
	if !sawTerminated {
		t.Error("the containers were not seen terminated during the grace period")
	}
}

// TestCompletingPods: a Job's pod succeeds after the run time; a pod with
// an exit code fails under Never and restarts under OnFailure.
func TestCompletingPods(t *testing.T) {
	t.Parallel()
	_, set := startAgent(t, 1)
	ctx := ctxT(t)
	pods := set.Pods.Namespace("default")
	yes := true
	job := boundPod("job-ok", "sim-0")
	job.OwnerReferences = []meta.OwnerReference{{APIVersion: "batch/v1", Kind: "Job", Name: "j", UID: "u-1", Controller: &yes}}
	fail := boundPod("exit-3", "sim-0")
	fail.Annotations = map[string]string{simnode.AnnotationExitCode: "3"}
	retry := boundPod("retry", "sim-0")
	retry.Annotations = map[string]string{simnode.AnnotationExitCode: "1"}
	retry.Spec.RestartPolicy = corev1.RestartPolicyOnFailure
	for _, p := range []*corev1.Pod{job, fail, retry} {
		if _, err := pods.Create(ctx, p, meta.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	wantPhase := func(name string, phase corev1.PodPhase, code int32) {
		eventually(t, name+" "+string(phase), func() (bool, error) {
			p, err := pods.Get(ctx, name, meta.GetOptions{})
			if err != nil || p.Status.Phase != phase {
				return false, err
			}
			term := p.Status.ContainerStatuses[0].State.Terminated
			return term != nil && term.ExitCode == code, nil
		})
	}
	wantPhase("job-ok", corev1.PodSucceeded, 0)
	wantPhase("exit-3", corev1.PodFailed, 3)
	eventually(t, "retry restarts, capped at 5", func() (bool, error) {
		p, err := pods.Get(ctx, "retry", meta.GetOptions{})
		if err != nil || len(p.Status.ContainerStatuses) == 0 {
			return false, err
		}
		cs := p.Status.ContainerStatuses[0]
		return p.Status.Phase == corev1.PodRunning && cs.RestartCount >= 2 && cs.LastTerminationState.Terminated != nil &&
			cs.LastTerminationState.Terminated.ExitCode == 1, nil
	})
}

var containerIDPattern = regexp.MustCompile(`^docker://[0-9a-f]{64}$`)
