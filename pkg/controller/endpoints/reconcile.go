package endpoints

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"strings"
	"time"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/labels"
	"platform.io/client/api/meta"
	"platform.io/client/client"
	ctrl "platform.io/client/controller"
	"platform.io/client/informer"
	"platform.io/client/record"
)

// LeaderAnnotation marks an Endpoints object used as a leader-election
// lock; the loop never deletes one, though no service has its name.
const LeaderAnnotation = "control-plane.alpha.platform.io/leader"

// reasonFailedToUpdate is the event of a failed write.
const reasonFailedToUpdate = "FailedToUpdateEndpoint"

// reconciler syncs one service's Endpoints.
type reconciler struct {
	services  informer.Lister[*corev1.Service]
	pods      informer.Lister[*corev1.Pod]
	endpoints informer.Lister[*corev1.Endpoints]
	clients   *client.Set
	rec       record.Recorder
	triggers  *triggerTracker
}

// Reconcile makes the Endpoints of the service key match its pods.
func (r *reconciler) Reconcile(ctx context.Context, key string) (ctrl.Result, error) {
	ns, name, _ := strings.Cut(key, "/")
	svc, err := r.services.Namespace(ns).Get(name)
	if apierrors.IsNotFound(err) {
		r.triggers.forget(key)
		return ctrl.Result{}, r.deleteOrphan(ctx, ns, name)
	}
	if err != nil {
		return ctrl.Result{}, fmt.Errorf("read service %s: %w", key, err)
	}
	if svc.Spec.Selector == nil || svc.Spec.Type == corev1.ServiceTypeExternalName {
		return ctrl.Result{}, nil
	}
	pods, err := r.pods.Namespace(ns).List(labels.SelectorFromSet(svc.Spec.Selector))
	if err != nil {
		return ctrl.Result{}, fmt.Errorf("list pods of service %s: %w", key, err)
	}
	subsets := subsetsFor(svc, pods)
	trigger, record := r.triggers.compute(key, svc, pods)
	cur, err := r.endpoints.Namespace(ns).Get(name)
	create := apierrors.IsNotFound(err)
	if err != nil && !create {
		return ctrl.Result{}, fmt.Errorf("read endpoints %s: %w", key, err)
	}
	if !create && reflect.DeepEqual(cur.Subsets, subsets) && maps.Equal(cur.Labels, wantLabels(svc)) {
		record()
		return ctrl.Result{}, nil
	}
	ep := &corev1.Endpoints{ObjectMeta: meta.ObjectMeta{Name: name, Namespace: ns}}
	if !create {
		c := *cur
		ep = &c
		ep.Annotations = maps.Clone(cur.Annotations)
	}
	ep.Labels, ep.Subsets = wantLabels(svc), subsets
	if ep.Annotations == nil {
		ep.Annotations = map[string]string{}
	}
	if trigger.IsZero() {
		delete(ep.Annotations, AnnotationLastChangeTriggerTime)
	} else {
		ep.Annotations[AnnotationLastChangeTriggerTime] = trigger.UTC().Format(time.RFC3339Nano)
	}
	if err := r.write(ctx, svc, ep, create); err != nil {
		return ctrl.Result{}, err
	}
	record()
	return ctrl.Result{}, nil
}

func (r *reconciler) write(ctx context.Context, svc *corev1.Service, ep *corev1.Endpoints, create bool) error {
	c := r.clients.Endpoints.Namespace(ep.Namespace)
	var err error
	if create {
		_, err = c.Create(ctx, ep, meta.WriteOptions{})
	} else {
		_, err = c.Update(ctx, ep, meta.WriteOptions{})
	}
	if err == nil {
		return nil
	}
	if apierrors.IsAlreadyExists(err) || apierrors.IsConflict(err) {
		// The cache is behind; the informer's event will bring us back.
		return fmt.Errorf("write endpoints %s/%s: %w", ep.Namespace, ep.Name, err)
	}
	r.rec.Eventf(serviceRef(svc), corev1.EventTypeWarning, reasonFailedToUpdate, "Failed to update endpoint %s/%s: %v", ep.Namespace, ep.Name, err)
	return fmt.Errorf("write endpoints %s/%s: %w", ep.Namespace, ep.Name, err)
}

// deleteOrphan deletes the Endpoints of a service that is gone, unless it
// is a leader-election lock.
func (r *reconciler) deleteOrphan(ctx context.Context, ns, name string) error {
	ep, err := r.endpoints.Namespace(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read endpoints %s/%s: %w", ns, name, err)
	}
	if _, lock := ep.Annotations[LeaderAnnotation]; lock {
		return nil
	}
	uid := ep.UID
	err = r.clients.Endpoints.Namespace(ns).Delete(ctx, name, &meta.DeleteOptions{Preconditions: &meta.Preconditions{UID: &uid}})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("delete endpoints %s/%s: %w", ns, name, err)
	}
	return nil
}

// wantLabels are the service's labels, plus the headless marker.
func wantLabels(svc *corev1.Service) map[string]string {
	l := maps.Clone(svc.Labels)
	if svc.Spec.ClusterIP == corev1.ClusterIPNone {
		if l == nil {
			l = map[string]string{}
		}
		l[LabelHeadless] = ""
	}
	return l
}

// LabelHeadless marks the Endpoints of a headless service.
const LabelHeadless = "service.platform.io/headless"

func serviceRef(s *corev1.Service) *corev1.ObjectReference {
	return &corev1.ObjectReference{APIVersion: "v1", Kind: "Service", Namespace: s.Namespace, Name: s.Name, UID: s.UID}
}
