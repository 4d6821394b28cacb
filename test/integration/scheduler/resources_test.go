package scheduler

import (
	"strings"
	"testing"

	corev1 "platform.io/client/api/core/v1"
)

// TestResourcesEventsAndRetry checks resource fit, the Scheduled event,
// the FailedScheduling summary and PodScheduled condition of a pod that
// fits nowhere, and its retry when a node that fits is added.
func TestResourcesEventsAndRetry(t *testing.T) {
	t.Parallel()
	c := start(t, nil)
	c.addNode(nodeSpec{name: "small-1", cpu: "1"})
	c.addNode(nodeSpec{name: "small-2", cpu: "1"})
	c.addNode(nodeSpec{name: "small-3", cpu: "1"})
	c.addNode(nodeSpec{name: "tainted-1", cpu: "8", taints: []corev1.Taint{{Key: "k", Value: "v", Effect: corev1.TaintEffectNoSchedule}}})
	c.addNode(nodeSpec{name: "tainted-2", cpu: "8", taints: []corev1.Taint{{Key: "k", Value: "v", Effect: corev1.TaintEffectNoSchedule}}})

	c.create(newPod("fits", "500m", ""))
	node := c.waitBound("fits")
	if node != "small-1" && node != "small-2" && node != "small-3" {
		t.Errorf("fits bound to %s, want an untainted node", node)
	}
	c.waitEvent("fits", "Scheduled", "Successfully assigned default/fits to "+node)

	c.create(newPod("big", "2", ""))
	want := "0/5 nodes are available: 3 Insufficient cpu, 2 node(s) had untolerated taint {k: v}."
	// The summary settles once every node and its status are cached.
	msg := c.waitEvent("big", "FailedScheduling", want)
	if !strings.HasPrefix(msg, want) {
		t.Errorf("FailedScheduling message\n got %q\nwant %q", msg, want)
	}
	poll(t, "PodScheduled condition with the summary", waitTimeout, func() (bool, error) {
		return strings.HasPrefix(c.waitUnschedulable("big"), want), nil
	})
	// A node that fits makes the unschedulable pod retry.
	c.addNode(nodeSpec{name: "large", cpu: "4"})
	if got := c.waitBound("big"); got != "large" {
		t.Errorf("big bound to %s, want large", got)
	}
	profile := map[string]string{"profile": "default-scheduler"}
	poll(t, "scheduled attempts counted", waitTimeout, func() (bool, error) {
		return c.counter("scheduler_schedule_attempts_total", map[string]string{"result": "scheduled", "profile": "default-scheduler"}) == 2, nil
	})
	if n := c.counter("scheduler_schedule_attempts_total", map[string]string{"result": "unschedulable", "profile": "default-scheduler"}); n < 1 {
		t.Errorf("unschedulable attempts: %v", n)
	}
	if n := c.counter("scheduler_e2e_scheduling_duration_seconds", profile); n < 2 {
		t.Errorf("e2e latency observations: %v", n)
	}
	if n := c.counter("scheduler_framework_extension_point_duration_seconds", map[string]string{"extension_point": "Bind", "status": "Success"}); n != 2 {
		t.Errorf("Bind extension point observations: %v, want 2", n)
	}
	if n := c.counter("scheduler_pending_pods", map[string]string{"queue": "unschedulable"}); n != 0 {
		t.Errorf("unschedulable pods pending: %v", n)
	}
}
