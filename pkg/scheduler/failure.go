package scheduler

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"go.uber.org/zap"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/rest"

	"platform.io/platform/pkg/scheduler/framework"
	"platform.io/platform/pkg/scheduler/metrics"
)

// ReasonSchedulerError is the PodScheduled reason of an internal failure.
const ReasonSchedulerError = "SchedulerError"

// fail records a failed attempt and requeues the pod: a FitError (or a
// rejection by reserve, permit or bind plugins) leaves it unschedulable,
// any other error sends it to backoff. nominated is the node preemption
// chose for it; the scheduler records it in status.nominatedNodeName.
func (s *Scheduler) fail(ctx context.Context, c *cycle, err error, st *framework.Status, nominated string) {
	pod := c.qpi.Pod
	reason, result := corev1.PodReasonUnschedulable, metrics.Unschedulable
	var fitErr *FitError
	switch {
	case errors.As(err, &fitErr):
		c.qpi.UnschedulablePlugins = fitErr.Diagnosis.UnschedulablePlugins
	case st.IsRejected():
		c.qpi.UnschedulablePlugins = map[string]bool{st.Plugin(): true}
	default:
		c.qpi.UnschedulablePlugins = nil
		reason, result = ReasonSchedulerError, metrics.Error
		s.lg.Info("scheduling attempt failed", zap.String("pod", pod.Namespace+"/"+pod.Name), zap.Error(err))
	}
	s.metrics.Attempt(result, c.fwk.ProfileName(), c.start, c.qpi.InitialAttemptTimestamp, time.Now())
	cur, gerr := s.pods.Namespace(pod.Namespace).Get(pod.Name)
	if gerr != nil || cur.UID != pod.UID || assigned(cur) || cur.DeletionTimestamp != nil {
		return // deleted, replaced or bound meanwhile: nothing to retry
	}
	c.qpi.PodInfo = framework.NewPodInfo(cur)
	s.Queue.AddUnschedulableIfNotPresent(c.qpi, c.number)
	if nominated != "" {
		s.Queue.Nominator().AddNominatedPod(c.qpi.PodInfo, nominated)
	}
	msg := err.Error()
	s.recorder.Eventf(podRef(cur), corev1.EventTypeWarning, "FailedScheduling", "%s", msg)
	s.bindings.Add(1)
	go func() {
		defer s.bindings.Done()
		// Ending ctx abandons the patch, as it abandons bindings.
		s.patchCondition(ctx, cur, reason, msg, nominated)
	}()
}

type podCondition struct {
	Type               corev1.PodConditionType `json:"type"`
	Status             corev1.ConditionStatus  `json:"status"`
	Reason             string                  `json:"reason,omitempty"`
	Message            string                  `json:"message,omitempty"`
	LastProbeTime      *string                 `json:"lastProbeTime"`
	LastTransitionTime string                  `json:"lastTransitionTime"`
}

// patchCondition sets PodScheduled=False with reason and message, and the
// nominated node, unless the pod already says so.
func (s *Scheduler) patchCondition(ctx context.Context, pod *corev1.Pod, reason, msg, nominated string) {
	transition := s.now().UTC().Format(time.RFC3339)
	for _, cond := range pod.Status.Conditions {
		if cond.Type != corev1.PodScheduled {
			continue
		}
		if cond.Status == corev1.ConditionFalse && cond.Reason == reason && cond.Message == msg &&
			(nominated == "" || nominated == pod.Status.NominatedNodeName) {
			return
		}
		if cond.Status == corev1.ConditionFalse && !cond.LastTransitionTime.IsZero() {
			transition = cond.LastTransitionTime.UTC().Format(time.RFC3339)
		}
	}
	status := map[string]any{"conditions": []podCondition{{
		Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Reason: reason, Message: msg, LastTransitionTime: transition,
	}}}
	if nominated != "" {
		status["nominatedNodeName"] = nominated
	}
	body, err := json.Marshal(map[string]any{"status": status})
	if err != nil {
		s.lg.Error("encode status patch", zap.Error(err))
		return
	}
	_, err = s.clients.Pods.Namespace(pod.Namespace).Patch(ctx, pod.Name, rest.StrategicMergePatchType, body, meta.WriteOptions{}, "status")
	if err != nil {
		s.lg.Debug("patch pod status", zap.String("pod", pod.Namespace+"/"+pod.Name), zap.Error(err))
	}
}

// bindingCycle waits for permit, runs pre-bind, bind and post-bind, and
// undoes the assumption when any fails. Ending loopCtx (the replica stops
// leading) rejects a pod permit plugins still hold and abandons a binding
// still waiting for the client's rate limiter or for the server's answer:
// the pod is left to the next leader, which finds it bound or not, and a
// step-down does not wait for a queue of bindings at the client's QPS.
// Pre-bind always runs to its end.
func (s *Scheduler) bindingCycle(loopCtx context.Context, c *cycle, assumed *corev1.Pod, host string) {
	fwk := c.fwk
	st := fwk.WaitOnPermit(loopCtx, assumed)
	ctx := context.WithoutCancel(loopCtx)
	if st.IsSuccess() {
		if _, passed := deadline(assumed, s.now()); passed {
			s.undo(ctx, c, assumed, host)
			s.dropPastDeadline(c, c.qpi.Pod)
			return
		}
		st = fwk.RunPreBindPlugins(ctx, c.state, assumed, host)
	}
	if st.IsSuccess() {
		st = fwk.RunBindPlugins(loopCtx, c.state, assumed, host)
	}
	if !st.IsSuccess() {
		s.undo(ctx, c, assumed, host)
		if loopCtx.Err() != nil {
			return // stepping down: no event or status for an abandoned attempt
		}
		// The room this pod held is free again.
		s.Queue.MoveAllToActiveOrBackoffQueue(eventAssignedPodDelete, nil)
		s.fail(loopCtx, c, st.AsError(), st, "")
		return
	}
	s.Cache.FinishBinding(assumed)
	if s.firstBound.CompareAndSwap(false, true) {
		s.lg.Info("first binding", zap.String("pod", assumed.Namespace+"/"+assumed.Name), zap.String("node", host),
			zap.Duration("sinceSchedulingStarted", time.Since(s.runStart)))
	}
	s.metrics.Attempt(metrics.Scheduled, fwk.ProfileName(), c.start, c.qpi.InitialAttemptTimestamp, time.Now())
	s.recorder.Eventf(podRef(assumed), corev1.EventTypeNormal, "Scheduled", "Successfully assigned %s/%s to %s", assumed.Namespace, assumed.Name, host)
	fwk.RunPostBindPlugins(ctx, c.state, assumed, host)
}
