package resourcequota

import (
	"context"
	"fmt"
	"strings"
	"time"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/resource"
	ctrl "platform.io/client/controller"
	"platform.io/client/informer"

	"platform.io/platform/pkg/quota"
)

// writer stores a quota's status.
type writer interface {
	updateStatus(ctx context.Context, q *corev1.ResourceQuota) error
}

// reconciler recounts one quota; keys are namespace/name.
type reconciler struct {
	quotas  informer.Lister[*corev1.ResourceQuota]
	sources []source
	write   writer
	now     func() time.Time
}

// Reconcile sets the quota's status.hard to its spec and status.used to
// the recounted usage. A write that loses a race to the admission plugin
// fails with a conflict and is retried on the newer quota.
func (r *reconciler) Reconcile(ctx context.Context, key string) (ctrl.Result, error) {
	ns, name, _ := strings.Cut(key, "/")
	q, err := r.quotas.Namespace(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return ctrl.Result{}, nil
	}
	if err != nil {
		return ctrl.Result{}, err
	}
	used, err := r.usage(q)
	if err != nil {
		return ctrl.Result{}, fmt.Errorf("usage of quota %s: %w", key, err)
	}
	hard := quota.Add(q.Spec.Hard, nil)
	if quota.Equal(q.Status.Hard, hard) && quota.Equal(q.Status.Used, used) {
		return ctrl.Result{}, nil
	}
	next := *q
	next.Status = corev1.ResourceQuotaStatus{Hard: hard, Used: used}
	if err := r.write.updateStatus(ctx, &next); err != nil && !apierrors.IsNotFound(err) {
		return ctrl.Result{}, fmt.Errorf("update status of quota %s: %w", key, err)
	}
	return ctrl.Result{}, nil
}

// usage recounts what the namespace uses of each resource q limits. A
// resource no source tracks keeps the usage last recorded (admission's
// charges), starting from zero.
func (r *reconciler) usage(q *corev1.ResourceQuota) (corev1.ResourceList, error) {
	names := quota.Names(q.Spec.Hard)
	used := quota.Mask(q.Status.Used, names)
	for _, n := range names {
		if _, ok := used[n]; !ok {
			used[n] = resource.Quantity{} // known from now on: admission may charge it
		}
	}
	now := r.now()
	for _, src := range r.sources {
		tracked := quota.Matching(src.gr, q.Spec.Hard)
		if len(tracked) == 0 {
			continue
		}
		objs, err := src.list(q.Namespace)
		if err != nil {
			return nil, err
		}
		sum := corev1.ResourceList{}
		for _, n := range tracked {
			sum[n] = resource.Quantity{}
		}
		for _, obj := range objs {
			if quota.Matches(q, src.gr, obj) {
				sum = quota.Add(sum, quota.Mask(quota.Usage(src.gr, obj, now), tracked))
			}
		}
		for k, v := range sum {
			used[k] = v
		}
	}
	return used, nil
}
