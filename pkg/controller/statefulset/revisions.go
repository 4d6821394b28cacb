package statefulset

import (
	"context"
	"errors"
	"fmt"

	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/controller/internal/history"
)

// revisions are the set's current and update revisions with the pod
// templates they hold.
type revisions struct {
	current, update         *appsv1.ControllerRevision
	currentTmpl, updateTmpl *corev1.PodTemplateSpec
}

// resolveRevisions finds or makes the update revision, the one holding the
// set's template: the newest revision when it already holds it; an older
// one holding it renumbered as the newest (a rollback); else a new one,
// whose name may need *cc bumped. The current revision is the one the
// status names, or the update revision when there is none yet.
func (r *Reconciler) resolveRevisions(ctx context.Context, set *appsv1.StatefulSet, revs []*appsv1.ControllerRevision, cc *int32) (*revisions, error) {
	history.Sort(revs)
	data, err := history.TemplateData(&set.Spec.Template)
	if err != nil {
		return nil, err
	}
	c := r.clients.ControllerRevisions.Namespace(set.Namespace)
	want := history.New(&set.ObjectMeta, ownerOf(set).Ref(), set.Spec.Template.Labels, data, history.Next(revs), cc)
	equal := history.FindEqual(revs, want)
	var update *appsv1.ControllerRevision
	switch {
	case len(equal) > 0 && history.Equal(revs[len(revs)-1], want):
		update = revs[len(revs)-1]
	case len(equal) > 0:
		update, err = history.Renumber(ctx, c, equal[len(equal)-1], want.Revision)
	default:
		update, err = history.Create(ctx, c, want, cc)
	}
	if err != nil {
		return nil, err
	}
	out := &revisions{update: update, current: update}
	for _, rev := range revs {
		if rev.Name == set.Status.CurrentRevision {
			out.current = rev
			break
		}
	}
	if out.updateTmpl, err = history.Template(out.update); err != nil {
		return nil, err
	}
	if out.currentTmpl, err = history.Template(out.current); err != nil {
		return nil, err
	}
	return out, nil
}

// truncateHistory deletes the oldest revisions beyond
// revisionHistoryLimit that neither the status nor any pod uses.
func (r *Reconciler) truncateHistory(ctx context.Context, set *appsv1.StatefulSet, pods []*corev1.Pod, revs []*appsv1.ControllerRevision, rs *revisions) error {
	live := map[string]bool{rs.current.Name: true, rs.update.Name: true}
	for _, p := range pods {
		live[revisionOf(p)] = true
	}
	limit := int32(10)
	if set.Spec.RevisionHistoryLimit != nil {
		limit = *set.Spec.RevisionHistoryLimit
	}
	var errs []error
	for _, rev := range history.ToDelete(revs, live, limit) {
		uid := rev.UID
		err := r.clients.ControllerRevisions.Namespace(set.Namespace).Delete(ctx, rev.Name, &meta.DeleteOptions{Preconditions: &meta.Preconditions{UID: &uid}})
		if err != nil && !apierrors.IsNotFound(err) {
			errs = append(errs, fmt.Errorf("delete revision %s: %w", rev.Name, err))
		}
	}
	return errors.Join(errs...)
}
