package nodelifecycle

import (
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
)

// TestSilentNodeIsTaintedAndEvicted: a node that stops its heartbeats gets
// Ready Unknown and the unreachable taints; its pods turn not ready; the
// pod tolerating the taint for 1s is evicted after that, pods with the
// default 300s or no limit stay; a pod that does not tolerate a NoExecute
// taint is evicted at once. When the node comes back its taints go.
func TestSilentNodeIsTaintedAndEvicted(t *testing.T) {
	t.Parallel()
	c := startCluster(t, 3)
	pods := c.set.Pods.Namespace("default")
	secs := func(n int64) *int64 { return &n }
	unreachable := func(s *int64) corev1.Toleration {
		return corev1.Toleration{Key: "node.platform.io/unreachable", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: s}
	}
	for _, p := range []*corev1.Pod{
		podOn("short", "sim-0", 1, unreachable(secs(1))),
		podOn("default", "sim-0", 1),
		podOn("forever", "sim-0", 1, unreachable(nil)),
		podOn("intolerant", "sim-1", 0),
	} {
		if _, err := pods.Create(c.ctx, p, meta.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	eventually(t, "pods running", func() (bool, error) {
		l, err := pods.List(c.ctx, meta.ListOptions{})
		if err != nil {
			return false, err
		}
		for _, p := range l.Items {
			if p.Status.Phase != corev1.PodRunning {
				return false, nil
			}
		}
		return len(l.Items) == 4, nil
	})

	// A NoExecute taint the pod does not tolerate evicts it at once.
	n1 := c.node(t, "sim-1")
	n1.Spec.Taints = append(n1.Spec.Taints, corev1.Taint{Key: "example.com/drain", Effect: corev1.TaintEffectNoExecute})
	if _, err := c.set.Nodes.Update(c.ctx, n1, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "intolerant pod evicted", func() (bool, error) {
		_, err := pods.Get(c.ctx, "intolerant", meta.GetOptions{})
		return apierrors.IsNotFound(err), nil
	})

	if err := c.agent.StopHeartbeat("sim-0"); err != nil {
		t.Fatal(err)
	}
	stopped := time.Now()
	eventually(t, "sim-0 Ready Unknown and tainted unreachable", func() (bool, error) {
		n := c.node(t, "sim-0")
		s, reason := ready(n)
		return s == corev1.ConditionUnknown && reason == "NodeStatusUnknown" &&
			hasTaint(n, "node.platform.io/unreachable", corev1.TaintEffectNoExecute) &&
			hasTaint(n, "node.platform.io/unreachable", corev1.TaintEffectNoSchedule), nil
	})
	if time.Since(stopped) < time.Second {
		t.Errorf("tainted %v after the heartbeats stopped, before the grace period", time.Since(stopped))
	}
	tainted := time.Now()
	eventually(t, "short pod evicted", func() (bool, error) {
		return c.pod(t, "short").DeletionTimestamp != nil, nil
	})
	if d := time.Since(tainted); d > 5*time.Second {
		t.Errorf("short pod evicted %v after the taint, want about 1s", d)
	}
	eventually(t, "pods marked not ready", func() (bool, error) {
		for _, cond := range c.pod(t, "default").Status.Conditions {
			if cond.Type == corev1.PodReady {
				return cond.Status == corev1.ConditionFalse, nil
			}
		}
		return false, nil
	})
	for _, name := range []string{"default", "forever"} {
		if p := c.pod(t, name); p.DeletionTimestamp != nil {
			t.Errorf("%s was evicted", name)
		}
	}
	for _, name := range []string{"sim-1", "sim-2"} {
		if n := c.node(t, name); hasTaint(n, "node.platform.io/unreachable", corev1.TaintEffectNoExecute) {
			t.Errorf("%s tainted unreachable", name)
		}
	}

	if err := c.agent.ResumeHeartbeat("sim-0"); err != nil {
		t.Fatal(err)
	}
	eventually(t, "sim-0 ready and untainted", func() (bool, error) {
		n := c.node(t, "sim-0")
		s, _ := ready(n)
		return s == corev1.ConditionTrue && len(n.Spec.Taints) == 0, nil
	})
	eventually(t, "the node confirms the eviction", func() (bool, error) {
		_, err := pods.Get(c.ctx, "short", meta.GetOptions{})
		return apierrors.IsNotFound(err), nil
	})
	for _, name := range []string{"default", "forever"} {
		if p := c.pod(t, name); p.DeletionTimestamp != nil {
			t.Errorf("%s was evicted after the node came back", name)
		}
	}
	eventually(t, "TaintManagerEviction event", func() (bool, error) {
		l, err := c.set.Events.Namespace("default").List(c.ctx, meta.ListOptions{})
		if err != nil {
			return false, err
		}
		for _, e := range l.Items {
			if e.Reason == "TaintManagerEviction" && e.InvolvedObject.Name == "short" {
				return true, nil
			}
		}
		return false, nil
	})
}
