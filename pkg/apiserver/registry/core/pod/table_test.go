package pod

import (
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

func running(name string, ready bool, restarts int32) corev1.ContainerStatus {
	return corev1.ContainerStatus{Name: name, Ready: ready, RestartCount: restarts,
		State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}}
}

func waiting(name, reason string, restarts int32) corev1.ContainerStatus {
	return corev1.ContainerStatus{Name: name, RestartCount: restarts,
		State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: reason}}}
}

func terminated(name, reason string, code, signal int32) corev1.ContainerStatus {
	return corev1.ContainerStatus{Name: name,
		State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: reason, ExitCode: code, Signal: signal}}}
}

// lastTerminated marks cs as having last terminated ago.
func lastTerminated(cs corev1.ContainerStatus, ago time.Duration) corev1.ContainerStatus {
	cs.LastTerminationState.Terminated = &corev1.ContainerStateTerminated{ExitCode: 1, FinishedAt: meta.NewTime(time.Now().Add(-ago))}
	return cs
}

func testPod(phase corev1.PodPhase, containers int, statuses ...corev1.ContainerStatus) *corev1.Pod {
	p := &corev1.Pod{ObjectMeta: meta.ObjectMeta{Name: "web", CreationTimestamp: meta.NewTime(time.Now().Add(-3 * time.Hour))}}
	for i := 0; i < containers; i++ {
		p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: string(rune('a' + i))})
	}
	p.Status.Phase = phase
	p.Status.ContainerStatuses = statuses
	return p
}

func withInit(p *corev1.Pod, specs []corev1.Container, statuses ...corev1.ContainerStatus) *corev1.Pod {
	p.Spec.InitContainers = specs
	p.Status.InitContainerStatuses = statuses
	return p
}

func withCondition(p *corev1.Pod, t corev1.PodConditionType, s corev1.ConditionStatus, reason string) *corev1.Pod {
	p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: t, Status: s, Reason: reason})
	return p
}

func deleting(p *corev1.Pod, reason string) *corev1.Pod {
	now := meta.Now()
	p.DeletionTimestamp = &now
	p.Status.Reason = reason
	return p
}

func TestPodTableRow(t *testing.T) {
	always := corev1.ContainerRestartPolicyAlways
	inits := []corev1.Container{{Name: "i1"}, {Name: "i2"}}
	sidecar := []corev1.Container{{Name: "proxy", RestartPolicy: &always}}
	started := true
	sidecarUp := running("proxy", true, 2)
	sidecarUp.Started = &started
	cases := []struct {
		name                    string
		pod                     *corev1.Pod
		ready, status, restarts string
	}{
		{"pending", testPod(corev1.PodPending, 2), "0/2", "Pending", "0"},
		{"running", testPod(corev1.PodRunning, 2, running("a", true, 0), running("b", true, 0)), "2/2", "Running", "0"},
		{"one not ready", testPod(corev1.PodRunning, 2, running("a", true, 0), running("b", false, 0)), "1/2", "Running", "0"},
		{"image pull", testPod(corev1.PodPending, 1, waiting("a", "ErrImagePull", 0)), "0/1", "ErrImagePull", "0"},
		{"crash loop", testPod(corev1.PodRunning, 1, lastTerminated(waiting("a", "CrashLoopBackOff", 5), 5*time.Minute)),
			"0/1", "CrashLoopBackOff", "5 (5m ago)"},
		{"restarts without a date", testPod(corev1.PodRunning, 1, running("a", true, 3)), "1/1", "Running", "3"},
		{"restarts summed, latest date", testPod(corev1.PodRunning, 2,
			lastTerminated(running("a", true, 1), 2*time.Hour), lastTerminated(running("b", true, 2), 90*time.Second)),
			"2/2", "Running", "3 (90s ago)"},
		{"completed", testPod(corev1.PodSucceeded, 1, terminated("a", "Completed", 0, 0)), "0/1", "Completed", "0"},
		{"error", testPod(corev1.PodFailed, 1, terminated("a", "Error", 1, 0)), "0/1", "Error", "0"},
		{"exit code", testPod(corev1.PodFailed, 1, terminated("a", "", 137, 0)), "0/1", "ExitCode:137", "0"},
		{"signal", testPod(corev1.PodFailed, 1, terminated("a", "", 0, 9)), "0/1", "Signal:9", "0"},
		{"completed while another runs", withCondition(testPod(corev1.PodRunning, 2,
			terminated("a", "Completed", 0, 0), running("b", true, 0)), corev1.PodReady, corev1.ConditionTrue, ""),
			"1/2", "Running", "0"},
		{"completed while another runs, not ready", testPod(corev1.PodRunning, 2,
			running("a", true, 0), terminated("b", "Completed", 0, 0)), "1/2", "NotReady", "0"},
		{"terminating", deleting(testPod(corev1.PodRunning, 1, running("a", true, 0)), ""), "1/1", "Terminating", "0"},
		{"terminating but finished", deleting(testPod(corev1.PodSucceeded, 1, terminated("a", "Completed", 0, 0)), ""),
			"0/1", "Completed", "0"},
		{"node lost", deleting(testPod(corev1.PodRunning, 1, running("a", true, 0)), "NodeLost"), "1/1", "Unknown", "0"},
		{"evicted", func() *corev1.Pod { p := testPod(corev1.PodFailed, 1); p.Status.Reason = "Evicted"; return p }(),
			"0/1", "Evicted", "0"},
		{"scheduling gated", withCondition(testPod(corev1.PodPending, 1), corev1.PodScheduled, corev1.ConditionFalse, "SchedulingGated"),
			"0/1", "SchedulingGated", "0"},
		{"init waiting", withInit(testPod(corev1.PodPending, 1, waiting("a", "PodInitializing", 0)), inits,
			waiting("i1", "PodInitializing", 0), waiting("i2", "PodInitializing", 0)), "0/1", "Init:0/2", "0"},
		{"init second", withInit(testPod(corev1.PodPending, 1), inits,
			terminated("i1", "Completed", 0, 0), running("i2", false, 0)), "0/1", "Init:1/2", "0"},
		{"init crash loop", withInit(testPod(corev1.PodPending, 1, waiting("a", "PodInitializing", 0)), inits,
			lastTerminated(waiting("i1", "CrashLoopBackOff", 4), 10*time.Minute)), "0/1", "Init:CrashLoopBackOff", "4 (10m ago)"},
		{"init failed", withInit(testPod(corev1.PodFailed, 1), inits, terminated("i1", "Error", 2, 0)), "0/1", "Init:Error", "0"},
		{"init exit code", withInit(testPod(corev1.PodFailed, 1), inits, terminated("i1", "", 3, 0)), "0/1", "Init:ExitCode:3", "0"},
		{"sidecar counted", withInit(testPod(corev1.PodRunning, 1, running("a", true, 1)), sidecar, sidecarUp),
			"2/2", "Running", "3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cells := tableRow(c.pod)
			if len(cells) != len(tableColumns.Columns) {
				t.Fatalf("%d cells for %d columns", len(cells), len(tableColumns.Columns))
			}
			if cells[0] != "web" || cells[1] != c.ready || cells[2] != c.status || cells[3] != c.restarts || cells[4] != "3h" {
				t.Errorf("cells %q, want ready %q status %q restarts %q age 3h", cells[:5], c.ready, c.status, c.restarts)
			}
		})
	}
}

func TestPodTableWideCells(t *testing.T) {
	p := testPod(corev1.PodRunning, 1, running("a", true, 0))
	if got := tableRow(p)[5:]; got[0] != "<none>" || got[1] != "<none>" || got[2] != "<none>" || got[3] != "<none>" {
		t.Errorf("wide cells of a new pod are %q", got)
	}
	p.Status.PodIP = "10.0.0.9"
	p.Status.PodIPs = []corev1.PodIP{{IP: "10.0.0.5"}, {IP: "fd00::5"}}
	p.Spec.NodeName = "worker-1"
	p.Status.NominatedNodeName = "worker-2"
	p.Spec.ReadinessGates = []corev1.PodReadinessGate{{ConditionType: "example.com/lb"}, {ConditionType: "example.com/dns"}}
	withCondition(p, "example.com/lb", corev1.ConditionTrue, "")
	withCondition(p, "example.com/dns", corev1.ConditionFalse, "")
	got := tableRow(p)[5:]
	want := []any{"10.0.0.5", "worker-1", "worker-2", "1/2"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("wide cells are %q, want %q", got, want)
			break
		}
	}
	for i, c := range tableColumns.Columns {
		if wide := i >= 5; (c.Priority == 1) != wide {
			t.Errorf("column %s has priority %d", c.Name, c.Priority)
		}
	}
}

func TestPodRowConditions(t *testing.T) {
	for phase, reason := range map[corev1.PodPhase]string{corev1.PodSucceeded: "Succeeded", corev1.PodFailed: "Failed", corev1.PodRunning: ""} {
		conds := rowConditions(testPod(phase, 1))
		switch {
		case reason == "" && conds != nil:
			t.Errorf("%s: conditions %+v", phase, conds)
		case reason != "" && (len(conds) != 1 || conds[0].Type != "Completed" || conds[0].Status != "True" || conds[0].Reason != reason):
			t.Errorf("%s: conditions %+v", phase, conds)
		}
	}
}
