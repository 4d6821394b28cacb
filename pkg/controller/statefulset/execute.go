package statefulset

import (
	"context"
	"errors"
	"fmt"

	"go.uber.org/zap"

	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/rest"

	"platform.io/platform/pkg/controller/internal/podcontrol"
)

// execute sends the plan's writes in order, going on past failures so one
// bad pod does not stall a Parallel set, and returns their joined errors.
func (r *Reconciler) execute(ctx context.Context, set *appsv1.StatefulSet, steps []step, rs *revisions) error {
	var errs []error
	for _, s := range steps {
		r.lg.Debug("step", zap.String("set", set.Namespace+"/"+set.Name), zap.Stringer("op", s.op), zap.Int("ordinal", s.ordinal))
		var err error
		switch s.op {
		case opCreate:
			err = r.createPod(ctx, set, s, rs)
		case opRecreate:
			r.rec.Eventf(ownerOf(set).Reference(), corev1.EventTypeWarning, "RecreatingFailedPod",
				"StatefulSet %s/%s is recreating failed Pod %s", set.Namespace, set.Name, s.pod.Name)
			err = r.deletePod(ctx, set, s.pod)
		case opDelete:
			err = r.deletePod(ctx, set, s.pod)
		case opRelabel:
			err = r.relabel(ctx, s.pod)
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func (r *Reconciler) createPod(ctx context.Context, set *appsv1.StatefulSet, s step, rs *revisions) error {
	tmpl := rs.updateTmpl
	if s.revision == rs.current.Name {
		tmpl = rs.currentTmpl
	}
	pod, err := newPod(set, tmpl, s.revision, s.ordinal)
	if err != nil {
		return err
	}
	ref := ownerOf(set).Reference()
	_, err = r.clients.Pods.Namespace(set.Namespace).Create(ctx, pod, meta.WriteOptions{})
	switch {
	case apierrors.IsAlreadyExists(err):
		// A stale cache: the pod exists and the informer will bring it.
		return nil
	case err != nil:
		r.rec.Eventf(ref, corev1.EventTypeWarning, podcontrol.ReasonFailedCreate,
			"create Pod %s in StatefulSet %s failed error: %v", pod.Name, set.Name, err)
		return fmt.Errorf("create pod %s: %w", pod.Name, err)
	}
	r.rec.Eventf(ref, corev1.EventTypeNormal, podcontrol.ReasonSuccessfulCreate,
		"create Pod %s in StatefulSet %s successful", pod.Name, set.Name)
	return nil
}

// deletePod deletes pod with its uid as a precondition: names are reused,
// and a stale cache must never make us delete the pod's successor.
func (r *Reconciler) deletePod(ctx context.Context, set *appsv1.StatefulSet, pod *corev1.Pod) error {
	uid := pod.UID
	err := r.clients.Pods.Namespace(set.Namespace).Delete(ctx, pod.Name, &meta.DeleteOptions{Preconditions: &meta.Preconditions{UID: &uid}})
	ref := ownerOf(set).Reference()
	switch {
	case apierrors.IsNotFound(err) || apierrors.IsConflict(err):
		return nil
	case err != nil:
		r.rec.Eventf(ref, corev1.EventTypeWarning, podcontrol.ReasonFailedDelete,
			"delete Pod %s in StatefulSet %s failed error: %v", pod.Name, set.Name, err)
		return fmt.Errorf("delete pod %s: %w", pod.Name, err)
	}
	r.rec.Eventf(ref, corev1.EventTypeNormal, podcontrol.ReasonSuccessfulDelete,
		"delete Pod %s in StatefulSet %s successful", pod.Name, set.Name)
	return nil
}

// relabel restores the pod-name label of pod.
func (r *Reconciler) relabel(ctx context.Context, pod *corev1.Pod) error {
	patch := fmt.Sprintf(`{"metadata":{"labels":{%q:%q}}}`, PodNameLabel, pod.Name)
	_, err := r.clients.Pods.Namespace(pod.Namespace).Patch(ctx, pod.Name, rest.MergePatchType, []byte(patch), meta.WriteOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("relabel pod %s: %w", pod.Name, err)
	}
	return nil
}
