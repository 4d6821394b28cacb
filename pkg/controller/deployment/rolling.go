package deployment

import (
	appsv1 "platform.io/client/api/apps/v1"
)

// rolloutRolling takes one step of a rolling update: grow the new
// ReplicaSet within the surge, or else shrink old ones within the
// unavailability budget, and clean up history once complete.
func (s *syncer) rolloutRolling(rsList []*appsv1.ReplicaSet) error {
	newRS, old, err := s.newAndOld(rsList, true)
	if err != nil {
		return err
	}
	all := append(append([]*appsv1.ReplicaSet(nil), old...), newRS)
	scaledUp, err := s.reconcileNewReplicaSet(all, newRS)
	if err != nil {
		return err
	}
	if scaledUp {
		return s.syncRolloutStatus(all, newRS)
	}
	scaledDown, err := s.reconcileOldReplicaSets(all, activeRSs(old), newRS)
	if err != nil {
		return err
	}
	if scaledDown {
		return s.syncRolloutStatus(all, newRS)
	}
	if deploymentComplete(s.d, &s.d.Status) {
		s.cleanup(old)
	}
	return s.syncRolloutStatus(all, newRS)
}

// reconcileNewReplicaSet grows (or, past the wanted count, shrinks) the
// new ReplicaSet.
func (s *syncer) reconcileNewReplicaSet(all []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet) (bool, error) {
	want := replicasOf(s.d)
	switch {
	case rsReplicas(newRS) == want:
		return false, nil
	case rsReplicas(newRS) > want:
		return s.scaleReplicaSet(newRS, want)
	}
	return s.scaleReplicaSet(newRS, NewRSNewReplicas(s.d, all, newRS))
}

// reconcileOldReplicaSets shrinks old ReplicaSets: first their unhealthy
// pods, then available ones down to the minimum available.
func (s *syncer) reconcileOldReplicaSets(all, old []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet) (bool, error) {
	if specReplicas(old) == 0 {
		return false, nil
	}
	maxDown := MaxScaledDown(s.d, all, newRS)
	if maxDown <= 0 {
		return false, nil
	}
	cleaned, err := s.cleanupUnhealthyReplicas(old, maxDown)
	if err != nil {
		return false, err
	}
	all = append(append([]*appsv1.ReplicaSet(nil), old...), newRS)
	scaled, err := s.scaleDownOldForRollingUpdate(all, old)
	if err != nil {
		return false, err
	}
	return cleaned+scaled > 0, nil
}

// cleanupUnhealthyReplicas removes up to maxDown unavailable pods from the
// old ReplicaSets, oldest first; they count for nothing.
func (s *syncer) cleanupUnhealthyReplicas(old []*appsv1.ReplicaSet, maxDown int32) (int32, error) {
	byCreation(old)
	var total int32
	for _, rs := range old {
		if total >= maxDown {
			break
		}
		if rsReplicas(rs) == 0 || rsReplicas(rs) == rs.Status.AvailableReplicas {
			continue
		}
		n := min(maxDown-total, rsReplicas(rs)-rs.Status.AvailableReplicas)
		if _, err := s.scaleReplicaSet(rs, rsReplicas(rs)-n); err != nil {
			return total, err
		}
		total += n
	}
	return total, nil
}

// scaleDownOldForRollingUpdate removes available old pods while more than
// the minimum are available, oldest ReplicaSets first.
func (s *syncer) scaleDownOldForRollingUpdate(all, old []*appsv1.ReplicaSet) (int32, error) {
	minAvailable := replicasOf(s.d) - MaxUnavailable(s.d)
	available := statusSum(all, availableReplicas)
	if available <= minAvailable {
		return 0, nil
	}
	byCreation(old)
	budget := available - minAvailable
	var total int32
	for _, rs := range old {
		if total >= budget {
			break
		}
		if rsReplicas(rs) == 0 {
			continue
		}
		n := min(rsReplicas(rs), budget-total)
		if _, err := s.scaleReplicaSet(rs, rsReplicas(rs)-n); err != nil {
			return total, err
		}
		total += n
	}
	return total, nil
}
