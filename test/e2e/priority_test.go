package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// priorityPod is the manifest of a pod asking for cpu, of the given class.
func priorityPod(name, class, cpu string) string {
	return fmt.Sprintf(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":%q,"labels":{"e2e":"priority"}},
"spec":{"priorityClassName":%q,"terminationGracePeriodSeconds":1,
"containers":[{"name":"c","image":"busybox","resources":{"requests":{"cpu":%q}}}]}}`, name, class, cpu)
}

// TestPriorityPreemption is a user's path with the stock kubectl: create
// priority classes, fill a node with low-priority pods, then create a pod
// of a high class that fits only if one of them goes. The Priority
// admission plugin gives it its class's priority, and the scheduler
// preempts a low-priority pod to place it.
func TestPriorityPreemption(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	s.StartProcess(t, "platform-simnode", "--nodes=1", "--cpu=2", "--readiness-delay=100ms")
	s.StartProcess(t, "platform-scheduler", "--bind-address", "127.0.0.1", "--port=0", "--secure-port", fmt.Sprint(freePort(t)),
		"--leader-elect-lease-duration=4s", "--leader-elect-renew-deadline=3s", "--leader-elect-retry-period=500ms")
	Eventually(t, 60*time.Second, "a Ready node", func() string {
		if out := s.Kubectl(t, "get", "nodes", "--no-headers"); !strings.Contains(out.Stdout, " Ready") {
			return out.String()
		}
		return ""
	})

	s.MustKubectl(t, "create", "priorityclass", "high", "--value=1000", "--description=user-facing")
	s.MustKubectl(t, "create", "priorityclass", "low", "--value=10")
	out := s.MustKubectl(t, "get", "priorityclasses")
	WantHeader(t, out, "NAME", "VALUE", "GLOBAL-DEFAULT", "AGE", "PREEMPTIONPOLICY")
	if row := TableRow(t, out, "high"); row[1] != "1000" || row[2] != "false" || row[4] != "PreemptLowerPriority" {
		t.Errorf("high row %v", row)
	}
	if row := TableRow(t, out, "system-node-critical"); row[1] != "2000001000" {
		t.Errorf("system-node-critical row %v", row)
	}
	WantContains(t, s.MustKubectl(t, "get", "pc", "low", "-o", "name"), "priorityclass.scheduling.platform.io/low")
	WantMatch(t, s.MustKubectl(t, "describe", "priorityclass", "high"), `Value:\s+1000`, `Description:\s+user-facing`, `PreemptionPolicy:\s+PreemptLowerPriority`)
	WantContains(t, s.MustKubectl(t, "explain", "priorityclass.value"), "priority that pods of this class receive")
	r := s.KubectlFails(t, "delete", "priorityclass", "system-node-critical")
	WantContains(t, r.Stderr, "this is a system priority class and cannot be deleted")
	r = s.KubectlFails(t, "create", "-f", WriteManifest(t, priorityPod("lost", "nope", "100m")))
	WantContains(t, r.Stderr, "no PriorityClass with name nope was found")

	// Two low-priority pods of one cpu each fill the node's two.
	for _, name := range []string{"low-0", "low-1"} {
		s.MustKubectl(t, "create", "-f", WriteManifest(t, priorityPod(name, "low", "1")))
	}
	Eventually(t, 60*time.Second, "the low pods Running", func() string {
		return want(s.field(t, "{range .items[*]}{.spec.priority}:{.status.phase} {end}", "get", "pods", "-l", "e2e=priority"), "10:Running 10:Running")
	})

	s.MustKubectl(t, "create", "-f", WriteManifest(t, priorityPod("urgent", "high", "1")))
	s.Expect(t, "1000 PreemptLowerPriority", "get", "pod", "urgent", "-o", "jsonpath={.spec.priority} {.spec.preemptionPolicy}")
	Eventually(t, 90*time.Second, "the high pod Running on the node", func() string {
		return want(s.field(t, "{.spec.nodeName} {.status.phase}", "get", "pod", "urgent"), "simnode-0 Running")
	})
	// Exactly one low pod made way; the other still runs.
	Eventually(t, 30*time.Second, "one low pod preempted", func() string {
		names := s.field(t, "{range .items[?(@.spec.priority==10)]}{.metadata.name}:{.status.phase} {end}", "get", "pods", "-l", "e2e=priority")
		if f := strings.Fields(names); len(f) != 1 || !strings.HasSuffix(f[0], ":Running") {
			return fmt.Sprintf("low pods: %q", names)
		}
		return ""
	})
	events := s.MustKubectl(t, "get", "events", "--field-selector", "reason=Preempted", "-o", "jsonpath={.items[*].involvedObject.name}")
	if n := len(strings.Fields(events)); n != 1 {
		t.Errorf("Preempted events for %q, want one", events)
	}
}
