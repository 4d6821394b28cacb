package deployment

import (
	"fmt"
	"strconv"

	"go.uber.org/zap"

	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/controller/internal/podcontrol"
)

// Progressing reasons, as upstream.
const (
	ReasonNewReplicaSetCreated     = "NewReplicaSetCreated"
	ReasonFoundNewReplicaSet       = "FoundNewReplicaSet"
	ReasonReplicaSetUpdated        = "ReplicaSetUpdated"
	ReasonNewReplicaSetAvailable   = "NewReplicaSetAvailable"
	ReasonProgressDeadlineExceeded = "ProgressDeadlineExceeded"
	ReasonReplicaSetCreateError    = "ReplicaSetCreateError"
	ReasonDeploymentPaused         = "DeploymentPaused"
	ReasonDeploymentResumed        = "DeploymentResumed"
	// Available reasons.
	ReasonMinimumReplicasAvailable   = "MinimumReplicasAvailable"
	ReasonMinimumReplicasUnavailable = "MinimumReplicasUnavailable"
	// ReasonScalingReplicaSet is the event of every ReplicaSet resize.
	ReasonScalingReplicaSet = "ScalingReplicaSet"
)

// findNewReplicaSet returns the oldest ReplicaSet whose template is d's.
func findNewReplicaSet(d *appsv1.Deployment, rsList []*appsv1.ReplicaSet) *appsv1.ReplicaSet {
	sorted := append([]*appsv1.ReplicaSet(nil), rsList...)
	byCreation(sorted)
	for _, rs := range sorted {
		if EqualIgnoreHash(&rs.Spec.Template, &d.Spec.Template) {
			return rs
		}
	}
	return nil
}

// split returns the new ReplicaSet (nil when none has d's template) and
// the others.
func split(d *appsv1.Deployment, rsList []*appsv1.ReplicaSet) (*appsv1.ReplicaSet, []*appsv1.ReplicaSet) {
	newRS := findNewReplicaSet(d, rsList)
	var old []*appsv1.ReplicaSet
	for _, rs := range rsList {
		if rs != newRS {
			old = append(old, rs)
		}
	}
	return newRS, old
}

// newAndOld is upstream's getAllReplicaSetsAndSyncRevision: it finds the
// new ReplicaSet and brings its revision up to date, or creates it when
// create is set, and returns it with the old ones.
func (s *syncer) newAndOld(rsList []*appsv1.ReplicaSet, create bool) (*appsv1.ReplicaSet, []*appsv1.ReplicaSet, error) {
	existing, old := split(s.d, rsList)
	newRS, err := s.newReplicaSet(existing, old, create)
	if err != nil {
		return nil, nil, err
	}
	return newRS, old, nil
}

func (s *syncer) newReplicaSet(existing *appsv1.ReplicaSet, old []*appsv1.ReplicaSet, create bool) (*appsv1.ReplicaSet, error) {
	d := s.d
	newRevision := strconv.FormatInt(maxRevision(old)+1, 10)
	if existing != nil {
		return s.syncExistingNewRS(existing, newRevision)
	}
	if !create {
		return nil, nil
	}
	hash := ComputeHash(&d.Spec.Template, d.Status.CollisionCount)
	tmpl := *podcontrol.Clone(&d.Spec.Template)
	tmpl.Labels = cloneLabels(d.Spec.Template.Labels, UniqueLabelKey, hash)
	sel := podcontrol.Clone(d.Spec.Selector)
	sel.MatchLabels = cloneLabels(sel.MatchLabels, UniqueLabelKey, hash)
	rs := &appsv1.ReplicaSet{}
	rs.Name = d.Name + "-" + hash
	rs.Namespace = d.Namespace
	rs.OwnerReferences = []meta.OwnerReference{s.owner().Ref()}
	rs.Labels = tmpl.Labels
	rs.Spec = appsv1.ReplicaSetSpec{Replicas: new(int32), MinReadySeconds: d.Spec.MinReadySeconds, Selector: sel, Template: tmpl}
	n := NewRSNewReplicas(d, append(append([]*appsv1.ReplicaSet(nil), old...), rs), rs)
	rs.Spec.Replicas = &n
	setNewReplicaSetAnnotations(d, rs, newRevision, false)
	created, err := s.rsClient.Namespace(d.Namespace).Create(s.ctx, rs, meta.WriteOptions{})
	alreadyExists := false
	switch {
	case apierrors.IsAlreadyExists(err):
		alreadyExists = true
		created, err = s.onNameTaken(rs, err)
		if err != nil {
			return nil, err
		}
	case err != nil:
		msg := fmt.Sprintf("Failed to create new replica set %q: %v", rs.Name, err)
		if hasProgressDeadline(d) {
			s.setCondition(newCondition(appsv1.DeploymentProgressing, corev1.ConditionFalse, ReasonReplicaSetCreateError, msg, s.now()))
			_ = s.flush()
		}
		s.rec.Eventf(s.ref(), corev1.EventTypeWarning, ReasonReplicaSetCreateError, "%s", msg)
		return nil, fmt.Errorf("create replicaset %s: %w", rs.Name, err)
	}
	if !alreadyExists && n > 0 {
		s.rec.Eventf(s.ref(), corev1.EventTypeNormal, ReasonScalingReplicaSet, "Scaled up replica set %s to %d", created.Name, n)
	}
	s.setRevision(newRevision)
	if !alreadyExists && hasProgressDeadline(d) {
		s.setCondition(newCondition(appsv1.DeploymentProgressing, corev1.ConditionTrue, ReasonNewReplicaSetCreated,
			fmt.Sprintf("Created new replica set %q", created.Name), s.now()))
	}
	return podcontrol.Clone(created), nil
}

// onNameTaken handles a create whose name exists: the ReplicaSet is ours
// when it has our controller reference and template (a stale cache);
// otherwise the hash collided, and the collision count goes up so the
// next sync picks another name.
func (s *syncer) onNameTaken(rs *appsv1.ReplicaSet, createErr error) (*appsv1.ReplicaSet, error) {
	got, err := s.rsClient.Namespace(rs.Namespace).Get(s.ctx, rs.Name, meta.GetOptions{})
	if err != nil {
		return nil, fmt.Errorf("read replicaset %s after a name clash: %w", rs.Name, err)
	}
	if podcontrol.IsControlledBy(&got.ObjectMeta, s.d.UID) && EqualIgnoreHash(&got.Spec.Template, &s.d.Spec.Template) {
		return got, nil
	}
	var cc int32
	if s.d.Status.CollisionCount != nil {
		cc = *s.d.Status.CollisionCount
	}
	cc++
	s.d.Status.CollisionCount = &cc
	if err := s.flush(); err != nil {
		return nil, err
	}
	s.lg.Info("replicaset name collision", zap.String("replicaset", rs.Name), zap.Int32("collisionCount", cc))
	return nil, fmt.Errorf("replicaset name %s is taken; collision count now %d: %w", rs.Name, cc, createErr)
}

// syncExistingNewRS brings the new ReplicaSet's annotations and
// minReadySeconds up to date, and the Deployment's revision.
func (s *syncer) syncExistingNewRS(rs *appsv1.ReplicaSet, newRevision string) (*appsv1.ReplicaSet, error) {
	d := s.d
	changed := setNewReplicaSetAnnotations(d, rs, newRevision, true)
	if changed || rs.Spec.MinReadySeconds != d.Spec.MinReadySeconds {
		rs.Spec.MinReadySeconds = d.Spec.MinReadySeconds
		updated, err := s.rsClient.Namespace(rs.Namespace).Update(s.ctx, rs, meta.WriteOptions{})
		if err != nil {
			return nil, fmt.Errorf("update new replicaset %s: %w", rs.Name, err)
		}
		*rs = *updated
	}
	s.setRevision(rs.Annotations[RevisionAnnotation])
	if getCondition(&d.Status, appsv1.DeploymentProgressing) == nil && hasProgressDeadline(d) {
		s.setCondition(newCondition(appsv1.DeploymentProgressing, corev1.ConditionTrue, ReasonFoundNewReplicaSet,
			fmt.Sprintf("Found new replica set %q", rs.Name), s.now()))
	}
	return rs, nil
}

// setRevision records the revision on the Deployment (written at flush).
func (s *syncer) setRevision(revision string) {
	if s.d.Annotations[RevisionAnnotation] == revision && s.d.Annotations[UpstreamRevisionAnnotation] == revision {
		return
	}
	if s.d.Annotations == nil {
		s.d.Annotations = map[string]string{}
	}
	s.d.Annotations[RevisionAnnotation] = revision
	s.d.Annotations[UpstreamRevisionAnnotation] = revision
}
