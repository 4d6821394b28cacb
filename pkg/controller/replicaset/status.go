package replicaset

import (
	"context"
	"fmt"
	"reflect"
	"time"

	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/labels"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/controller/internal/podcontrol"
)

// Reasons of the ReplicaFailure condition.
const (
	ReasonFailedCreate = "FailedCreate"
	ReasonFailedDelete = "FailedDelete"
)

// calculateStatus is rs's status given the pods it owns and the error of
// this sync's creates or deletes, if any.
func calculateStatus(rs *appsv1.ReplicaSet, pods []*corev1.Pod, manageErr error, now time.Time) appsv1.ReplicaSetStatus {
	st := appsv1.ReplicaSetStatus{ObservedGeneration: rs.Generation}
	st.Conditions = append(st.Conditions, rs.Status.Conditions...)
	templateLabels := labels.SelectorFromSet(labels.Set(rs.Spec.Template.Labels))
	for _, p := range pods {
		st.Replicas++
		if templateLabels.Matches(labels.Set(p.Labels)) {
			st.FullyLabeledReplicas++
		}
		if podcontrol.IsPodReady(p) {
			st.ReadyReplicas++
			if podcontrol.IsPodAvailable(p, rs.Spec.MinReadySeconds, now) {
				st.AvailableReplicas++
			}
		}
	}
	failure := findCondition(st.Conditions, appsv1.ReplicaSetReplicaFailure)
	switch {
	case manageErr != nil && failure == nil:
		reason := ReasonFailedCreate
		if len(pods) > int(replicas(rs)) {
			reason = ReasonFailedDelete
		}
		st.Conditions = append(st.Conditions, appsv1.ReplicaSetCondition{
			Type: appsv1.ReplicaSetReplicaFailure, Status: corev1.ConditionTrue,
			LastTransitionTime: meta.NewTime(now), Reason: reason, Message: manageErr.Error(),
		})
	case manageErr == nil && failure != nil:
		st.Conditions = removeCondition(st.Conditions, appsv1.ReplicaSetReplicaFailure)
	}
	return st
}

func findCondition(conds []appsv1.ReplicaSetCondition, t appsv1.ReplicaSetConditionType) *appsv1.ReplicaSetCondition {
	for i := range conds {
		if conds[i].Type == t {
			return &conds[i]
		}
	}
	return nil
}

func removeCondition(conds []appsv1.ReplicaSetCondition, t appsv1.ReplicaSetConditionType) []appsv1.ReplicaSetCondition {
	var out []appsv1.ReplicaSetCondition
	for _, c := range conds {
		if c.Type != t {
			out = append(out, c)
		}
	}
	return out
}

// writeStatus writes status unless rs already has it, and returns the
// ReplicaSet as it now stands.
func (r *Reconciler) writeStatus(ctx context.Context, rs *appsv1.ReplicaSet, status appsv1.ReplicaSetStatus) (*appsv1.ReplicaSet, error) {
	if statusEqual(rs.Status, status) {
		return rs, nil
	}
	cp := podcontrol.Clone(rs)
	cp.Status = status
	updated, err := r.rsClient.Namespace(rs.Namespace).UpdateStatus(ctx, cp, meta.WriteOptions{})
	if err != nil {
		return nil, fmt.Errorf("update status of replicaset %s/%s: %w", rs.Namespace, rs.Name, err)
	}
	return updated, nil
}

// statusEqual compares statuses, treating empty and nil conditions alike.
func statusEqual(a, b appsv1.ReplicaSetStatus) bool {
	if len(a.Conditions) == 0 && len(b.Conditions) == 0 {
		a.Conditions, b.Conditions = nil, nil
	}
	return reflect.DeepEqual(a, b)
}
