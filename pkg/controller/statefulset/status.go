package statefulset

import (
	"context"
	"time"

	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/controller"
)

// computeStatus counts the set's pods as upstream does: every member pod
// toward replicas, running-and-ready ones toward ready (and available after
// minReadySeconds), live ones toward the current and updated counts by the
// revision they wear. A RollingUpdate whose pods are all updated and ready
// is complete: the update revision becomes the current one.
func computeStatus(set *appsv1.StatefulSet, pods []*corev1.Pod, rs *revisions, cc int32, now time.Time) appsv1.StatefulSetStatus {
	st := appsv1.StatefulSetStatus{
		ObservedGeneration: set.Generation,
		CurrentRevision:    rs.current.Name,
		UpdateRevision:     rs.update.Name,
		CollisionCount:     &cc,
		Conditions:         set.Status.Conditions,
	}
	for _, p := range pods {
		st.Replicas++
		if isHealthy(p) {
			st.ReadyReplicas++
			if availableIn(p, set.Spec.MinReadySeconds, now) == 0 {
				st.AvailableReplicas++
			}
		}
		if isTerminating(p) {
			continue
		}
		switch revisionOf(p) {
		case rs.current.Name:
			st.CurrentReplicas++
			if rs.current.Name == rs.update.Name {
				st.UpdatedReplicas++
			}
		case rs.update.Name:
			st.UpdatedReplicas++
		}
	}
	if set.Spec.UpdateStrategy.Type == appsv1.RollingUpdateStatefulSetStrategyType &&
		st.UpdatedReplicas == st.Replicas && st.ReadyReplicas == st.Replicas {
		st.CurrentReplicas = st.UpdatedReplicas
		st.CurrentRevision = st.UpdateRevision
	}
	return st
}

// writeStatus saves st unless the set already has it.
func (r *Reconciler) writeStatus(ctx context.Context, set *appsv1.StatefulSet, st appsv1.StatefulSetStatus) error {
	return controller.WriteStatus(ctx, r.clients.StatefulSets, set, func(set *appsv1.StatefulSet) *appsv1.StatefulSetStatus { return &set.Status }, st)
}
