package deployment

import (
	"fmt"

	"go.uber.org/zap"

	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
)

func activeRSs(rss []*appsv1.ReplicaSet) []*appsv1.ReplicaSet {
	var out []*appsv1.ReplicaSet
	for _, rs := range rss {
		if rs != nil && rsReplicas(rs) > 0 {
			out = append(out, rs)
		}
	}
	return out
}

// isScalingEvent reports whether d's replicas changed since its active
// ReplicaSets were last sized (their desired-replicas annotation).
func (s *syncer) isScalingEvent(rsList []*appsv1.ReplicaSet) bool {
	newRS, old := split(s.d, rsList)
	for _, rs := range activeRSs(append(old, newRS)) {
		if desired, ok := annotatedInt(rs, DesiredReplicasAnnotation); ok && desired != replicasOf(s.d) {
			return true
		}
	}
	return false
}

// syncScale is upstream's sync: resize the ReplicaSets for a scaling
// event or while paused, clean old ones up when paused, write status.
func (s *syncer) syncScale(rsList []*appsv1.ReplicaSet) error {
	newRS, old, err := s.newAndOld(rsList, false)
	if err != nil {
		return err
	}
	if err := s.scale(newRS, old); err != nil {
		return err
	}
	if s.d.Spec.Paused && rollbackTo(s.d) == nil {
		s.cleanup(old)
	}
	return s.syncStatus(append(old, newRS), newRS)
}

// findActiveOrLatest returns the only ReplicaSet with pods, or the newest
// when none has any; nil when several have pods.
func findActiveOrLatest(newRS *appsv1.ReplicaSet, old []*appsv1.ReplicaSet) *appsv1.ReplicaSet {
	if newRS == nil && len(old) == 0 {
		return nil
	}
	sorted := append([]*appsv1.ReplicaSet(nil), old...)
	byCreation(sorted)
	active := activeRSs(append(append([]*appsv1.ReplicaSet(nil), sorted...), newRS))
	switch len(active) {
	case 0:
		if newRS != nil {
			return newRS
		}
		return sorted[len(sorted)-1]
	case 1:
		return active[0]
	}
	return nil
}

// isSaturated: rs runs all of d's wanted pods, available.
func isSaturated(d *appsv1.Deployment, rs *appsv1.ReplicaSet) bool {
	if rs == nil {
		return false
	}
	desired, ok := annotatedInt(rs, DesiredReplicasAnnotation)
	n := replicasOf(d)
	return ok && rsReplicas(rs) == n && desired == n && rs.Status.AvailableReplicas == n
}

// scale resizes the ReplicaSets after d's replicas changed: the one active
// ReplicaSet takes the new count; otherwise the change is spread over
// the active ones in proportion to their size, the rest going to the
// largest.
func (s *syncer) scale(newRS *appsv1.ReplicaSet, old []*appsv1.ReplicaSet) error {
	d := s.d
	if rs := findActiveOrLatest(newRS, old); rs != nil {
		if rsReplicas(rs) == replicasOf(d) {
			return nil
		}
		_, err := s.scaleReplicaSet(rs, replicasOf(d))
		return err
	}
	if isSaturated(d, newRS) {
		for _, rs := range activeRSs(old) {
			if _, err := s.scaleReplicaSet(rs, 0); err != nil {
				return err
			}
		}
		return nil
	}
	if !isRollingUpdate(d) {
		return nil
	}
	all := activeRSs(append(append([]*appsv1.ReplicaSet(nil), old...), newRS))
	sizes := proportionalSizes(d, all)
	for _, rs := range all {
		if _, err := s.scaleReplicaSet(rs, sizes[rs.Name]); err != nil {
			return err
		}
	}
	return nil
}

// proportionalSizes is the new size of each of the active ReplicaSets all
// when d's allowed total (replicas plus surge) changed; it sorts all in
// the order the change is handed out.
func proportionalSizes(d *appsv1.Deployment, all []*appsv1.ReplicaSet) map[string]int32 {
	allowed := int32(0)
	if replicasOf(d) > 0 {
		allowed = replicasOf(d) + MaxSurge(d)
	}
	toAdd := allowed - specReplicas(all)
	bySize(all, toAdd > 0)
	sizes := map[string]int32{}
	added := int32(0)
	for _, rs := range all {
		if toAdd == 0 {
			sizes[rs.Name] = rsReplicas(rs)
			continue
		}
		p := proportion(rs, d, toAdd, added)
		sizes[rs.Name] = rsReplicas(rs) + p
		added += p
	}
	if left := toAdd - added; left != 0 && len(all) > 0 {
		sizes[all[0].Name] = max(sizes[all[0].Name]+left, 0)
	}
	return sizes
}

// scaleReplicaSet sets rs's replicas and sizing annotations, recording
// ScalingReplicaSet when the size changes; it reports whether it did.
func (s *syncer) scaleReplicaSet(rs *appsv1.ReplicaSet, size int32) (bool, error) {
	d := s.d
	sizeChange := rsReplicas(rs) != size
	maxReplicas := replicasOf(d) + MaxSurge(d)
	if !sizeChange && !replicasAnnotationsNeedUpdate(rs, replicasOf(d), maxReplicas) {
		return false, nil
	}
	op := "up"
	if size < rsReplicas(rs) {
		op = "down"
	}
	rs.Spec.Replicas = &size
	setReplicasAnnotations(rs, replicasOf(d), maxReplicas)
	updated, err := s.rsClient.Namespace(rs.Namespace).Update(s.ctx, rs, meta.WriteOptions{})
	if err != nil {
		return false, fmt.Errorf("scale replicaset %s to %d: %w", rs.Name, size, err)
	}
	*rs = *updated
	if sizeChange {
		s.rec.Eventf(s.ref(), corev1.EventTypeNormal, ReasonScalingReplicaSet, "Scaled %s replica set %s to %d", op, rs.Name, size)
	}
	return sizeChange, nil
}

// cleanup deletes the old ReplicaSets historyToDelete picks.
func (s *syncer) cleanup(old []*appsv1.ReplicaSet) {
	for _, rs := range historyToDelete(old, s.d.Spec.RevisionHistoryLimit) {
		uid := rs.UID
		err := s.rsClient.Namespace(rs.Namespace).Delete(s.ctx, rs.Name, &meta.DeleteOptions{Preconditions: &meta.Preconditions{UID: &uid}})
		if err != nil && !apierrors.IsNotFound(err) {
			s.lg.Info("could not delete an old replicaset", zap.String("namespace", rs.Namespace), zap.String("replicaset", rs.Name), zap.Error(err))
		}
	}
}

// historyToDelete picks, among the old ReplicaSets not being deleted, the
// ones beyond limit (10 when nil) with the lowest revisions, and of those
// the ones with no pods and a current status. The revision decides, not
// the age: a rollback reuses an old ReplicaSet and gives it the newest
// revision, so the oldest ReplicaSet may be the one history must keep.
func historyToDelete(old []*appsv1.ReplicaSet, limit *int32) []*appsv1.ReplicaSet {
	keep := 10
	if limit != nil {
		keep = int(*limit)
	}
	var alive []*appsv1.ReplicaSet
	for _, rs := range old {
		if rs != nil && rs.DeletionTimestamp == nil {
			alive = append(alive, rs)
		}
	}
	diff := len(alive) - keep
	if diff <= 0 {
		return nil
	}
	byRevision(alive)
	var out []*appsv1.ReplicaSet
	for _, rs := range alive[:diff] {
		if rs.Status.Replicas != 0 || rsReplicas(rs) != 0 || rs.Generation > rs.Status.ObservedGeneration {
			continue
		}
		out = append(out, rs)
	}
	return out
}
