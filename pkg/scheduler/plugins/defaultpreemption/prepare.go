package defaultpreemption

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/rest"

	"platform.io/platform/pkg/scheduler/framework"
)

// errNoClients is returned when the handle gives no API clients.
var errNoClients = errors.New("defaultpreemption: the handle has no API clients")

// prepareCandidate evicts c's victims (setting their DisruptionTarget
// condition, deleting each with its own grace period, and recording a
// Preempted event on it), clears the nominations
// of lower-priority pods to c's node, which may no longer fit there, and
// nominates the node for pod: in the nominator and, by a merge patch of
// pods/status, in pod's status.nominatedNodeName.
func (pl *Plugin) prepareCandidate(ctx context.Context, c *candidate, pod *corev1.Pod) *framework.Status {
	cs := pl.h.Clients()
	if cs == nil {
		return framework.AsStatus(errNoClients)
	}
	for _, v := range c.victims {
		if err := pl.markDisruption(ctx, v, pod); err != nil {
			return framework.AsStatus(err)
		}
		opts := &meta.DeleteOptions{GracePeriodSeconds: v.Spec.TerminationGracePeriodSeconds}
		if err := cs.Pods.Namespace(v.Namespace).Delete(ctx, v.Name, opts); err != nil && !apierrors.IsNotFound(err) {
			return framework.AsStatus(fmt.Errorf("%s: evict %s/%s: %w", Name, v.Namespace, v.Name, err))
		}
		if rec := pl.h.EventRecorder(); rec != nil {
			rec.Eventf(podRef(v), corev1.EventTypeNormal, "Preempted", "Preempted by %s/%s on node %s", pod.Namespace, pod.Name, c.node)
		}
	}
	nom := pl.h.PodNominator()
	if nom != nil {
		for _, pi := range nom.NominatedPodsForNode(c.node) {
			if pi.Pod.UID == pod.UID || priority(pi.Pod) >= priority(pod) {
				continue
			}
			// Not fatal, as upstream: the pod keeps trying its nomination.
			_ = pl.setNominatedNodeName(ctx, pi.Pod, "")
			nom.DeleteNominatedPodIfExists(pi.Pod)
		}
	}
	if err := pl.setNominatedNodeName(ctx, pod, c.node); err != nil {
		return framework.AsStatus(err)
	}
	if nom != nil {
		nom.AddNominatedPod(framework.NewPodInfo(pod), c.node)
	}
	return nil
}

// setNominatedNodeName writes pod's status.nominatedNodeName ("" clears
// it) with a merge patch of pods/status. A pod already gone is no error.
func (pl *Plugin) setNominatedNodeName(ctx context.Context, pod *corev1.Pod, node string) error {
	cs := pl.h.Clients()
	if cs == nil {
		return errNoClients
	}
	var v any
	if node != "" {
		v = node
	}
	body, err := json.Marshal(map[string]any{"status": map[string]any{"nominatedNodeName": v}})
	if err != nil {
		return fmt.Errorf("%s: encode patch: %w", Name, err)
	}
	_, err = cs.Pods.Namespace(pod.Namespace).Patch(ctx, pod.Name, rest.MergePatchType, body, meta.WriteOptions{}, "status")
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("%s: set nominatedNodeName of %s/%s to %q: %w", Name, pod.Namespace, pod.Name, node, err)
	}
	return nil
}

// podRef is the event's involved object for a pod.
func podRef(p *corev1.Pod) corev1.ObjectReference {
	return corev1.ObjectReference{
		Kind: "Pod", APIVersion: "v1", Namespace: p.Namespace, Name: p.Name,
		UID: p.UID, ResourceVersion: p.ResourceVersion,
	}
}

// markDisruption sets the victim's DisruptionTarget condition (True,
// PreemptionByScheduler) by a strategic merge patch of pods/status, as
// upstream does before deleting it, unless it is already set.
func (pl *Plugin) markDisruption(ctx context.Context, victim, preemptor *corev1.Pod) error {
	if preemptedByScheduler(victim) {
		return nil
	}
	cond := map[string]any{
		"type": corev1.DisruptionTarget, "status": corev1.ConditionTrue,
		"reason":             corev1.PodReasonPreemptionByScheduler,
		"message":            preemptor.Spec.SchedulerName + ": preempting to accommodate a higher priority pod",
		"lastTransitionTime": pl.now().UTC().Format(time.RFC3339),
	}
	body, err := json.Marshal(map[string]any{"status": map[string]any{"conditions": []any{cond}}})
	if err != nil {
		return fmt.Errorf("%s: encode patch: %w", Name, err)
	}
	_, err = pl.h.Clients().Pods.Namespace(victim.Namespace).Patch(ctx, victim.Name, rest.StrategicMergePatchType, body, meta.WriteOptions{}, "status")
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("%s: mark %s/%s as preempted: %w", Name, victim.Namespace, victim.Name, err)
	}
	return nil
}

// preemptedByScheduler reports a DisruptionTarget condition that says the
// scheduler preempted the pod.
func preemptedByScheduler(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.DisruptionTarget {
			return c.Status == corev1.ConditionTrue && c.Reason == corev1.PodReasonPreemptionByScheduler
		}
	}
	return false
}
