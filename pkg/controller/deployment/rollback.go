package deployment

import (
	"fmt"
	"strconv"

	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/controller/internal/podcontrol"
)

// Rollback event reasons, as upstream.
const (
	ReasonRollbackDone              = "DeploymentRollback"
	ReasonRollbackRevisionNotFound  = "RollbackRevisionNotFound"
	ReasonRollbackTemplateUnchanged = "RollbackTemplateUnchanged"
)

// rollbackTo reads the revision a rollback was asked for from the
// deprecated.deployment.rollback.to annotation (0: the previous one); nil
// when there is none or it is not a number.
func rollbackTo(d *appsv1.Deployment) *int64 {
	v, ok := d.Annotations[appsv1.DeprecatedRollbackTo]
	if !ok || v == "" {
		return nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return nil
	}
	return &n
}

// rollback copies the template of the ReplicaSet with the wanted revision
// into the Deployment and clears the request; the rollout follows from the
// template change.
func (s *syncer) rollback(rsList []*appsv1.ReplicaSet) error {
	d := s.d
	newRS, old, err := s.newAndOld(rsList, true)
	if err != nil {
		return err
	}
	all := append(old, newRS)
	revision := *rollbackTo(d)
	if revision == 0 {
		if revision = lastRevision(all); revision == 0 {
			s.rec.Eventf(s.ref(), corev1.EventTypeWarning, ReasonRollbackRevisionNotFound, "Unable to find last revision.")
			return s.clearRollback()
		}
	}
	for _, rs := range all {
		if v, err := revisionOf(rs); err != nil || v != revision {
			continue
		}
		if EqualIgnoreHash(&d.Spec.Template, &rs.Spec.Template) {
			s.rec.Eventf(s.ref(), corev1.EventTypeWarning, ReasonRollbackTemplateUnchanged,
				"The rollback revision contains the same template as current deployment %q", d.Name)
			return s.clearRollback()
		}
		tmpl := *podcontrol.Clone(&rs.Spec.Template)
		tmpl.Labels = withoutHash(tmpl.Labels)
		d.Spec.Template = tmpl
		setDeploymentAnnotationsTo(d, rs)
		if err := s.clearRollback(); err != nil {
			return err
		}
		s.rec.Eventf(s.ref(), corev1.EventTypeNormal, ReasonRollbackDone, "Rolled back deployment %q to revision %d", d.Name, revision)
		return nil
	}
	s.rec.Eventf(s.ref(), corev1.EventTypeWarning, ReasonRollbackRevisionNotFound, "Unable to find the revision to rollback to.")
	return s.clearRollback()
}

// clearRollback removes the request and writes the Deployment.
func (s *syncer) clearRollback() error {
	delete(s.d.Annotations, appsv1.DeprecatedRollbackTo)
	if err := s.flush(); err != nil {
		return fmt.Errorf("clear rollback request: %w", err)
	}
	return nil
}
