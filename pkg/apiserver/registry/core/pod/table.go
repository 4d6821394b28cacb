package pod

import (
	"fmt"
	"strconv"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/table"
)

// nodeLostReason is the status reason the node lifecycle controller gives
// pods of a node that stopped reporting; such a pod being deleted shows Unknown.
const nodeLostReason = "NodeLost"

// tableColumns are the columns of kubectl get pods.
var tableColumns = &registry.TableColumns{
	Columns: []meta.TableColumnDefinition{
		table.NameColumn(),
		table.Column("Ready", table.TypeString, "Ready containers out of the pod's containers, sidecars included."),
		table.Column("Status", table.TypeString, "The pod's aggregate status: its phase, or why its containers are not running."),
		table.Column("Restarts", table.TypeString, "How many times the pod's containers restarted, and how long ago the last restart was."),
		table.AgeColumn(),
		table.Wide("IP", table.TypeString, "The pod's primary IP address."),
		table.Wide("Node", table.TypeString, "The node the pod is bound to."),
		table.Wide("Nominated Node", table.TypeString, "The node a preempting pod expects to run on once its victims are gone."),
		table.Wide("Readiness Gates", table.TypeString, "Readiness gates whose condition is True, out of those the pod declares."),
	},
	Row:        func(obj meta.Object) []any { return tableRow(obj.(*corev1.Pod)) },
	Conditions: func(obj meta.Object) []meta.TableRowCondition { return rowConditions(obj.(*corev1.Pod)) },
}

func tableRow(pod *corev1.Pod) []any {
	s := summarize(pod)
	restarts := strconv.Itoa(s.restarts)
	if s.restarts != 0 && !s.lastRestart.IsZero() {
		restarts = fmt.Sprintf("%d (%s ago)", s.restarts, table.Since(s.lastRestart))
	}
	ip := pod.Status.PodIP
	if len(pod.Status.PodIPs) > 0 {
		ip = pod.Status.PodIPs[0].IP
	}
	return []any{
		pod.Name, fmt.Sprintf("%d/%d", s.ready, s.total), s.reason, restarts, table.Age(&pod.ObjectMeta),
		table.OrNone(ip), table.OrNone(pod.Spec.NodeName), table.OrNone(pod.Status.NominatedNodeName), readinessGates(pod),
	}
}

// rowConditions marks a pod that has finished as Completed.
func rowConditions(pod *corev1.Pod) []meta.TableRowCondition {
	switch pod.Status.Phase {
	case corev1.PodSucceeded:
		return []meta.TableRowCondition{{Type: "Completed", Status: "True", Reason: string(corev1.PodSucceeded), Message: "The pod has completed successfully."}}
	case corev1.PodFailed:
		return []meta.TableRowCondition{{Type: "Completed", Status: "True", Reason: string(corev1.PodFailed), Message: "The pod failed."}}
	}
	return nil
}

// readinessGates renders "true/declared" for the pod's readiness gates.
func readinessGates(pod *corev1.Pod) string {
	gates := pod.Spec.ReadinessGates
	if len(gates) == 0 {
		return table.None
	}
	met := 0
	for _, g := range gates {
		if c := findCondition(pod, g.ConditionType); c != nil && c.Status == corev1.ConditionTrue {
			met++
		}
	}
	return fmt.Sprintf("%d/%d", met, len(gates))
}

func findCondition(pod *corev1.Pod, t corev1.PodConditionType) *corev1.PodCondition {
	for i := range pod.Status.Conditions {
		if pod.Status.Conditions[i].Type == t {
			return &pod.Status.Conditions[i]
		}
	}
	return nil
}

func conditionTrue(pod *corev1.Pod, t corev1.PodConditionType) bool {
	c := findCondition(pod, t)
	return c != nil && c.Status == corev1.ConditionTrue
}

// summary is what the Ready, Status and Restarts cells show.
type summary struct {
	ready, total int
	reason       string
	restarts     int
	lastRestart  time.Time
}

// restartCounter sums restarts and keeps the latest time a container last
// terminated.
type restartCounter struct {
	count int
	last  time.Time
}

func (c *restartCounter) add(cs *corev1.ContainerStatus) {
	c.count += int(cs.RestartCount)
	if t := cs.LastTerminationState.Terminated; t != nil && c.last.Before(t.FinishedAt.Time) {
		c.last = t.FinishedAt.Time
	}
}

// summarize works out the pod's ready count and status reason the way
// kubectl has always shown them: the phase (or status reason) unless an
// init container is still running or failed ("Init:1/3",
// "Init:CrashLoopBackOff"), else the reason of the first container, from
// the last, that is waiting or terminated ("CrashLoopBackOff",
// "Completed", "ExitCode:1"), then Terminating while the pod is deleted.
func summarize(pod *corev1.Pod) summary {
	s := summary{total: len(pod.Spec.Containers), reason: string(pod.Status.Phase)}
	if pod.Status.Reason != "" {
		s.reason = pod.Status.Reason
	}
	if c := findCondition(pod, corev1.PodScheduled); c != nil && c.Reason == corev1.PodReasonSchedulingGated {
		s.reason = corev1.PodReasonSchedulingGated
	}
	sidecars := map[string]bool{}
	for _, c := range pod.Spec.InitContainers {
		if c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways {
			sidecars[c.Name] = true
			s.total++
		}
	}
	all, side, initializing := s.initContainers(pod, sidecars)
	s.restarts, s.lastRestart = all.count, all.last
	if !initializing || conditionTrue(pod, corev1.PodInitialized) {
		s.restarts, s.lastRestart = side.count, side.last
		s.appContainers(pod)
	}
	switch {
	case pod.DeletionTimestamp == nil:
	case pod.Status.Reason == nodeLostReason:
		s.reason = "Unknown"
	case pod.Status.Phase != corev1.PodSucceeded && pod.Status.Phase != corev1.PodFailed:
		s.reason = "Terminating"
	}
	return s
}

// initContainers walks the init containers in order up to the first one
// that has not finished, counting restarts (all of them, and the sidecars'
// alone) and ready started sidecars; initializing says one has not finished.
func (s *summary) initContainers(pod *corev1.Pod, sidecars map[string]bool) (all, side restartCounter, initializing bool) {
	for i := range pod.Status.InitContainerStatuses {
		cs := &pod.Status.InitContainerStatuses[i]
		all.add(cs)
		sidecar := sidecars[cs.Name]
		if sidecar {
			side.add(cs)
		}
		term, wait := cs.State.Terminated, cs.State.Waiting
		switch {
		case term != nil && term.ExitCode == 0:
			continue
		case sidecar && cs.Started != nil && *cs.Started:
			if cs.Ready {
				s.ready++
			}
			continue
		case term != nil:
			s.reason = "Init:" + terminatedReason(term)
		case wait != nil && wait.Reason != "" && wait.Reason != "PodInitializing":
			s.reason = "Init:" + wait.Reason
		default:
			s.reason = fmt.Sprintf("Init:%d/%d", i, len(pod.Spec.InitContainers))
		}
		return all, side, true
	}
	return all, side, false
}

// appContainers adds the app containers' restarts and ready count; the
// reason becomes that of the first container, from the last, that is
// waiting or terminated.
func (s *summary) appContainers(pod *corev1.Pod) {
	c := restartCounter{count: s.restarts, last: s.lastRestart}
	running := false
	for i := len(pod.Status.ContainerStatuses) - 1; i >= 0; i-- {
		cs := &pod.Status.ContainerStatuses[i]
		c.add(cs)
		switch term, wait := cs.State.Terminated, cs.State.Waiting; {
		case wait != nil && wait.Reason != "":
			s.reason = wait.Reason
		case term != nil:
			s.reason = terminatedReason(term)
		case cs.Ready && cs.State.Running != nil:
			running = true
			s.ready++
		}
	}
	s.restarts, s.lastRestart = c.count, c.last
	// A container that completed while another still runs: the pod runs.
	if s.reason == "Completed" && running {
		s.reason = "NotReady"
		if conditionTrue(pod, corev1.PodReady) {
			s.reason = "Running"
		}
	}
}

// terminatedReason is a terminated container's reason, or its signal or
// exit code when it has none.
func terminatedReason(t *corev1.ContainerStateTerminated) string {
	switch {
	case t.Reason != "":
		return t.Reason
	case t.Signal != 0:
		return fmt.Sprintf("Signal:%d", t.Signal)
	}
	return fmt.Sprintf("ExitCode:%d", t.ExitCode)
}
