package deployment

import (
	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

// rolloutRecreate takes one step of a Recreate rollout: scale every old
// ReplicaSet to zero, wait until no old pod runs, then scale the new
// ReplicaSet to the wanted count.
func (s *syncer) rolloutRecreate(rsList []*appsv1.ReplicaSet, podMap map[meta.UID][]*corev1.Pod) error {
	newRS, old, err := s.newAndOld(rsList, false)
	if err != nil {
		return err
	}
	all := append(append([]*appsv1.ReplicaSet(nil), old...), newRS)
	scaledDown := false
	for _, rs := range activeRSs(old) {
		changed, err := s.scaleReplicaSet(rs, 0)
		if err != nil {
			return err
		}
		scaledDown = scaledDown || changed
	}
	if scaledDown || oldPodsRunning(newRS, old, podMap) {
		return s.syncRolloutStatus(all, newRS)
	}
	if newRS == nil {
		newRS, old, err = s.newAndOld(rsList, true)
		if err != nil {
			return err
		}
		all = append(append([]*appsv1.ReplicaSet(nil), old...), newRS)
	}
	if _, err := s.scaleReplicaSet(newRS, replicasOf(s.d)); err != nil {
		return err
	}
	if deploymentComplete(s.d, &s.d.Status) {
		s.cleanup(old)
	}
	return s.syncRolloutStatus(all, newRS)
}

// oldPodsRunning reports whether any old ReplicaSet still counts pods, or
// any pod of one has not finished.
func oldPodsRunning(newRS *appsv1.ReplicaSet, old []*appsv1.ReplicaSet, podMap map[meta.UID][]*corev1.Pod) bool {
	if statusSum(old, actualReplicas) > 0 {
		return true
	}
	for uid, pods := range podMap {
		if newRS != nil && newRS.UID == uid {
			continue
		}
		for _, p := range pods {
			if p.Status.Phase != corev1.PodSucceeded && p.Status.Phase != corev1.PodFailed {
				return true
			}
		}
	}
	return false
}
