package deployment

import (
	"fmt"
	"math"
	"time"

	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

func newCondition(t appsv1.DeploymentConditionType, status corev1.ConditionStatus, reason, msg string, now time.Time) appsv1.DeploymentCondition {
	ts := meta.NewTime(now)
	return appsv1.DeploymentCondition{Type: t, Status: status, LastUpdateTime: ts, LastTransitionTime: ts, Reason: reason, Message: msg}
}

func getCondition(st *appsv1.DeploymentStatus, t appsv1.DeploymentConditionType) *appsv1.DeploymentCondition {
	for i := range st.Conditions {
		if st.Conditions[i].Type == t {
			return &st.Conditions[i]
		}
	}
	return nil
}

// setStatusCondition puts c into st, as upstream's SetDeploymentCondition:
// nothing changes when status and reason are the same; the transition
// time is kept when only the reason changes.
func setStatusCondition(st *appsv1.DeploymentStatus, c appsv1.DeploymentCondition) {
	cur := getCondition(st, c.Type)
	if cur != nil && cur.Status == c.Status && cur.Reason == c.Reason {
		return
	}
	if cur != nil && cur.Status == c.Status {
		c.LastTransitionTime = cur.LastTransitionTime
	}
	removeCondition(st, c.Type)
	st.Conditions = append(st.Conditions, c)
}

func removeCondition(st *appsv1.DeploymentStatus, t appsv1.DeploymentConditionType) {
	var out []appsv1.DeploymentCondition
	for _, c := range st.Conditions {
		if c.Type != t {
			out = append(out, c)
		}
	}
	st.Conditions = out
}

func (s *syncer) setCondition(c appsv1.DeploymentCondition) { setStatusCondition(&s.d.Status, c) }

func hasProgressDeadline(d *appsv1.Deployment) bool {
	return d.Spec.ProgressDeadlineSeconds != nil && *d.Spec.ProgressDeadlineSeconds != math.MaxInt32
}

// checkPausedConditions sets Progressing to Unknown with DeploymentPaused
// when d is paused, DeploymentResumed when it is resumed; a timed-out
// rollout keeps its condition.
func (s *syncer) checkPausedConditions() {
	d := s.d
	if !hasProgressDeadline(d) {
		return
	}
	cond := getCondition(&d.Status, appsv1.DeploymentProgressing)
	if cond != nil && cond.Reason == ReasonProgressDeadlineExceeded {
		return
	}
	pausedCond := cond != nil && cond.Reason == ReasonDeploymentPaused
	switch {
	case d.Spec.Paused && !pausedCond:
		s.setCondition(newCondition(appsv1.DeploymentProgressing, corev1.ConditionUnknown, ReasonDeploymentPaused, "Deployment is paused", s.now()))
	case !d.Spec.Paused && pausedCond:
		s.setCondition(newCondition(appsv1.DeploymentProgressing, corev1.ConditionUnknown, ReasonDeploymentResumed, "Deployment is resumed", s.now()))
	}
}

// calculateStatus derives d's status from its ReplicaSets, keeping its
// conditions but for Available.
func calculateStatus(d *appsv1.Deployment, allRSs []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet, now time.Time) appsv1.DeploymentStatus {
	available := statusSum(allRSs, availableReplicas)
	unavailable := max(specReplicas(allRSs)-available, 0)
	st := appsv1.DeploymentStatus{
		ObservedGeneration:  d.Generation,
		Replicas:            statusSum(allRSs, actualReplicas),
		UpdatedReplicas:     statusSum([]*appsv1.ReplicaSet{newRS}, actualReplicas),
		ReadyReplicas:       statusSum(allRSs, readyReplicas),
		AvailableReplicas:   available,
		UnavailableReplicas: unavailable,
		CollisionCount:      d.Status.CollisionCount,
	}
	st.Conditions = append(st.Conditions, d.Status.Conditions...)
	if available >= replicasOf(d)-MaxUnavailable(d) {
		setStatusCondition(&st, newCondition(appsv1.DeploymentAvailable, corev1.ConditionTrue, ReasonMinimumReplicasAvailable, "Deployment has minimum availability.", now))
	} else {
		setStatusCondition(&st, newCondition(appsv1.DeploymentAvailable, corev1.ConditionFalse, ReasonMinimumReplicasUnavailable, "Deployment does not have minimum availability.", now))
	}
	return st
}

// deploymentComplete: every wanted pod is updated and available, and the
// status describes the current generation.
func deploymentComplete(d *appsv1.Deployment, st *appsv1.DeploymentStatus) bool {
	n := replicasOf(d)
	return st.UpdatedReplicas == n && st.Replicas == n && st.AvailableReplicas == n && st.ObservedGeneration >= d.Generation
}

// deploymentProgressing: more pods are updated, ready or available than
// before, or fewer old pods remain.
func deploymentProgressing(d *appsv1.Deployment, st *appsv1.DeploymentStatus) bool {
	old := d.Status
	return st.UpdatedReplicas > old.UpdatedReplicas ||
		st.Replicas-st.UpdatedReplicas < old.Replicas-old.UpdatedReplicas ||
		st.ReadyReplicas > old.ReadyReplicas ||
		st.AvailableReplicas > old.AvailableReplicas
}

// deploymentTimedOut: the Progressing condition was last updated longer
// than the deadline ago.
func deploymentTimedOut(d *appsv1.Deployment, st *appsv1.DeploymentStatus, now time.Time) bool {
	if !hasProgressDeadline(d) {
		return false
	}
	c := getCondition(st, appsv1.DeploymentProgressing)
	switch {
	case c == nil || c.Reason == ReasonNewReplicaSetAvailable:
		return false
	case c.Reason == ReasonProgressDeadlineExceeded:
		return true
	}
	deadline := time.Duration(*d.Spec.ProgressDeadlineSeconds) * time.Second
	return c.LastUpdateTime.Time.Add(deadline).Before(now)
}

// syncStatus writes the plain status (no Progressing changes), for
// scaling, pause and deletion.
func (s *syncer) syncStatus(allRSs []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet) error {
	s.d.Status = calculateStatus(s.d, allRSs, newRS, s.now())
	return s.flush()
}

// syncStatusOnly is the sync of a Deployment being deleted.
func (s *syncer) syncStatusOnly(rsList []*appsv1.ReplicaSet) error {
	newRS, old, err := s.newAndOld(rsList, false)
	if err != nil {
		return err
	}
	return s.syncStatus(append(old, newRS), newRS)
}

// syncRolloutStatus writes the status of a rollout with the Progressing
// and ReplicaFailure conditions, and plans a visit at the progress
// deadline.
func (s *syncer) syncRolloutStatus(allRSs []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet) error {
	d, now := s.d, s.now()
	st := calculateStatus(d, allRSs, newRS, now)
	if !hasProgressDeadline(d) {
		removeCondition(&st, appsv1.DeploymentProgressing)
	}
	cur := getCondition(&d.Status, appsv1.DeploymentProgressing)
	complete := st.Replicas == st.UpdatedReplicas && cur != nil && cur.Reason == ReasonNewReplicaSetAvailable
	if hasProgressDeadline(d) && !complete {
		s.progressCondition(&st, newRS, cur, now)
	}
	if f := replicaFailure(allRSs, newRS); f != nil {
		setStatusCondition(&st, *f)
	} else {
		removeCondition(&st, appsv1.DeploymentReplicaFailure)
	}
	s.requeue = s.stuckRequeue(&st, now)
	s.d.Status = st
	return s.flush()
}

// progressCondition sets Progressing in st: NewReplicaSetAvailable when
// complete, ReplicaSetUpdated while pods move, ProgressDeadlineExceeded
// when stuck past the deadline.
func (s *syncer) progressCondition(st *appsv1.DeploymentStatus, newRS *appsv1.ReplicaSet, cur *appsv1.DeploymentCondition, now time.Time) {
	d := s.d
	subject := fmt.Sprintf("Deployment %q", d.Name)
	if newRS != nil {
		subject = fmt.Sprintf("ReplicaSet %q", newRS.Name)
	}
	switch {
	case deploymentComplete(d, st):
		setStatusCondition(st, newCondition(appsv1.DeploymentProgressing, corev1.ConditionTrue, ReasonNewReplicaSetAvailable, subject+" has successfully progressed.", now))
	case deploymentProgressing(d, st):
		c := newCondition(appsv1.DeploymentProgressing, corev1.ConditionTrue, ReasonReplicaSetUpdated, subject+" is progressing.", now)
		if cur != nil && cur.Status == corev1.ConditionTrue {
			c.LastTransitionTime = cur.LastTransitionTime
		}
		// Replace, so the update time moves even when the reason is the same.
		removeCondition(st, appsv1.DeploymentProgressing)
		st.Conditions = append(st.Conditions, c)
	case deploymentTimedOut(d, st, now):
		setStatusCondition(st, newCondition(appsv1.DeploymentProgressing, corev1.ConditionFalse, ReasonProgressDeadlineExceeded, subject+" has timed out progressing.", now))
	}
}

// replicaFailure is the ReplicaFailure condition of the new ReplicaSet,
// or else of any ReplicaSet, as a Deployment condition.
func replicaFailure(allRSs []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet) *appsv1.DeploymentCondition {
	find := func(rs *appsv1.ReplicaSet) *appsv1.DeploymentCondition {
		for _, c := range rs.Status.Conditions {
			if c.Type == appsv1.ReplicaSetReplicaFailure {
				return &appsv1.DeploymentCondition{Type: appsv1.DeploymentReplicaFailure, Status: c.Status,
					LastUpdateTime: c.LastTransitionTime, LastTransitionTime: c.LastTransitionTime, Reason: c.Reason, Message: c.Message}
			}
		}
		return nil
	}
	if newRS != nil {
		return find(newRS)
	}
	for _, rs := range allRSs {
		if rs == nil {
			continue
		}
		if c := find(rs); c != nil {
			return c
		}
	}
	return nil
}

// stuckRequeue is when to look again to notice a missed progress deadline:
// zero when there is nothing to wait for.
func (s *syncer) stuckRequeue(st *appsv1.DeploymentStatus, now time.Time) time.Duration {
	d := s.d
	cur := getCondition(&d.Status, appsv1.DeploymentProgressing)
	if !hasProgressDeadline(d) || cur == nil || deploymentComplete(d, st) || cur.Reason == ReasonProgressDeadlineExceeded {
		return 0
	}
	after := cur.LastUpdateTime.Time.Add(time.Duration(*d.Spec.ProgressDeadlineSeconds) * time.Second).Sub(now)
	if after < time.Second {
		return time.Second
	}
	return after + time.Second
}
