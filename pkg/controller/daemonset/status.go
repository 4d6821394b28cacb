package daemonset

import (
	"context"
	"time"

	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/controller"
	"platform.io/platform/pkg/controller/internal/history"
	"platform.io/platform/pkg/controller/internal/podcontrol"
)

// computeStatus counts, as upstream, over the nodes: desired where a pod
// should run; there, current when it has a live pod, whose oldest decides
// ready, available and updated; misscheduled where a live pod is but
// should not be. It also returns how soon a ready pod becomes available.
func computeStatus(v view, cc *int32) (appsv1.DaemonSetStatus, time.Duration) {
	p := newPlanner(v)
	st := appsv1.DaemonSetStatus{
		ObservedGeneration: v.ds.Generation,
		CollisionCount:     cc,
		Conditions:         v.ds.Status.Conditions,
	}
	var requeue time.Duration
	for _, n := range v.nodes {
		var live []*corev1.Pod
		for _, pod := range p.byNode[n.Name] {
			if !isTerminating(pod) && pod.Status.Phase != corev1.PodFailed && pod.Status.Phase != corev1.PodSucceeded {
				live = append(live, pod)
			}
		}
		if !p.fits[n.Name].shouldRun {
			if len(live) > 0 {
				st.NumberMisscheduled++
			}
			continue
		}
		st.DesiredNumberScheduled++
		if len(live) == 0 {
			continue
		}
		st.CurrentNumberScheduled++
		pod := live[0]
		if podcontrol.IsPodReady(pod) {
			st.NumberReady++
			if p.available(pod) {
				st.NumberAvailable++
			} else if c := podcontrol.ReadyCondition(pod); c != nil {
				left := c.LastTransitionTime.Time.Add(time.Duration(v.ds.Spec.MinReadySeconds) * time.Second).Sub(v.now)
				if left > 0 && (requeue == 0 || left < requeue) {
					requeue = left
				}
			}
		}
		if pod.Labels[history.HashLabel] == v.hash {
			st.UpdatedNumberScheduled++
		}
	}
	st.NumberUnavailable = st.DesiredNumberScheduled - st.NumberAvailable
	return st, requeue
}

// writeStatus saves st unless the DaemonSet already has it.
func (r *Reconciler) writeStatus(ctx context.Context, ds *appsv1.DaemonSet, st appsv1.DaemonSetStatus) error {
	return controller.WriteStatus(ctx, r.clients.DaemonSets, ds, func(ds *appsv1.DaemonSet) *appsv1.DaemonSetStatus { return &ds.Status }, st)
}
