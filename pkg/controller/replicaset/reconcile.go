package replicaset

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"go.uber.org/zap"

	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/labels"
	"platform.io/client/api/meta"
	"platform.io/client/client"
	ctrl "platform.io/client/controller"
	"platform.io/client/informer"

	"platform.io/platform/pkg/controller/internal/podcontrol"
)

// BurstReplicas caps the pods created or deleted for one ReplicaSet in one
// sync, as upstream does.
const BurstReplicas = 500

// Reconciler syncs one ReplicaSet per key.
type Reconciler struct {
	lg           *zap.Logger
	rsLister     informer.Lister[*appsv1.ReplicaSet]
	podLister    informer.Lister[*corev1.Pod]
	rsClient     *client.Client[appsv1.ReplicaSet, *appsv1.ReplicaSet]
	pods         *podcontrol.Control
	expectations *ctrl.Expectations
	now          func() time.Time
	burst        int
}

var _ ctrl.Reconciler = (*Reconciler)(nil)

// Reconcile brings the ReplicaSet named by key to its replica count and
// writes its status.
func (r *Reconciler) Reconcile(ctx context.Context, key string) (ctrl.Result, error) {
	ns, name := splitKey(key)
	rs, err := r.rsLister.Namespace(ns).Get(name)
	if apierrors.IsNotFound(err) {
		r.expectations.Forget(key)
		return ctrl.Result{}, nil
	}
	if err != nil {
		return ctrl.Result{}, fmt.Errorf("read replicaset %s: %w", key, err)
	}
	satisfied := r.expectations.Satisfied(key)
	sel, err := labels.FromLabelSelector(rs.Spec.Selector)
	if err != nil {
		return ctrl.Result{}, fmt.Errorf("replicaset %s selector: %w: %w", key, err, ctrl.ErrTerminal)
	}
	all, err := r.podLister.Namespace(ns).List(labels.Everything())
	if err != nil {
		return ctrl.Result{}, fmt.Errorf("list pods of %s: %w", key, err)
	}
	pods, err := r.claim(ctx, rs, sel, podcontrol.FilterActive(all))
	if err != nil {
		return ctrl.Result{}, err
	}
	var manageErr error
	if satisfied && rs.DeletionTimestamp == nil {
		manageErr = r.manage(ctx, key, rs, pods)
	}
	now := r.now()
	status := calculateStatus(rs, pods, manageErr, now)
	updated, err := r.writeStatus(ctx, rs, status)
	if err != nil {
		return ctrl.Result{}, errors.Join(manageErr, err)
	}
	if manageErr != nil {
		return ctrl.Result{}, manageErr
	}
	minReady := updated.Spec.MinReadySeconds
	if minReady > 0 && updated.Status.ReadyReplicas == replicas(updated) && updated.Status.AvailableReplicas != replicas(updated) {
		return ctrl.Result{RequeueAfter: time.Duration(minReady) * time.Second}, nil
	}
	return ctrl.Result{}, nil
}

// claim adopts and releases pods for rs and returns the ones it owns.
func (r *Reconciler) claim(ctx context.Context, rs *appsv1.ReplicaSet, sel labels.Selector, pods []*corev1.Pod) ([]*corev1.Pod, error) {
	owner := ownerOf(rs)
	c := &podcontrol.Claimer{
		Owner:    owner,
		Selector: sel,
		Patch:    podcontrol.PodPatch(r.pods.Writer(), rs.Namespace),
		CanAdopt: podcontrol.RecheckDeletion(owner, func(ctx context.Context) (*meta.ObjectMeta, error) {
			fresh, err := r.rsClient.Namespace(rs.Namespace).Get(ctx, rs.Name, meta.GetOptions{})
			if err != nil {
				return nil, err
			}
			return &fresh.ObjectMeta, nil
		}),
	}
	claimed, err := podcontrol.ClaimPods(ctx, c, pods)
	if err != nil {
		return nil, fmt.Errorf("claim pods of %s/%s: %w", rs.Namespace, rs.Name, err)
	}
	return claimed, nil
}

// replicas is rs's wanted count, 1 when unset.
func replicas(rs *appsv1.ReplicaSet) int32 {
	if rs.Spec.Replicas == nil {
		return 1
	}
	return *rs.Spec.Replicas
}

// manage creates or deletes pods so that rs has its wanted count, at most
// r.burst of them in one sync.
func (r *Reconciler) manage(ctx context.Context, key string, rs *appsv1.ReplicaSet, pods []*corev1.Pod) error {
	diff := len(pods) - int(replicas(rs))
	switch {
	case diff < 0:
		return r.createPods(ctx, key, rs, min(-diff, r.burst))
	case diff > 0:
		return r.deletePods(ctx, key, rs, PodsToDelete(pods, min(diff, r.burst)))
	}
	return nil
}

// createPods creates n pods from rs's template in slow-start batches.
func (r *Reconciler) createPods(ctx context.Context, key string, rs *appsv1.ReplicaSet, n int) error {
	r.expectations.Expect(key, n, 0)
	owner := ownerOf(rs)
	ok, err := podcontrol.SlowStartBatch(n, 1, func() error {
		_, err := r.pods.CreatePod(ctx, &rs.Spec.Template, owner, nil)
		if err != nil && apierrors.IsTimeout(err) {
			// The server may still create it; the informer will tell.
			return nil
		}
		return err
	})
	for range n - ok {
		r.expectations.Observed(key, true)
	}
	if err != nil {
		return fmt.Errorf("create pods for %s: %w", key, err)
	}
	return nil
}

// deletePods deletes pods at once, in parallel.
func (r *Reconciler) deletePods(ctx context.Context, key string, rs *appsv1.ReplicaSet, pods []*corev1.Pod) error {
	r.expectations.Expect(key, 0, len(pods))
	owner := ownerOf(rs)
	errs := make([]error, len(pods))
	var wg sync.WaitGroup
	for i, p := range pods {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := r.pods.DeletePod(ctx, owner, p.Name)
			if err == nil {
				return
			}
			r.expectations.Observed(key, false)
			if !apierrors.IsNotFound(err) {
				errs[i] = err
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("delete pods of %s: %w", key, err)
	}
	return nil
}

// PodsToDelete returns the n least valuable of pods.
func PodsToDelete(pods []*corev1.Pod, n int) []*corev1.Pod {
	sorted := append([]*corev1.Pod(nil), pods...)
	podcontrol.SortLeastValuableFirst(sorted)
	return sorted[:min(n, len(sorted))]
}

// splitKey splits "namespace/name".
func splitKey(key string) (string, string) {
	for i := range len(key) {
		if key[i] == '/' {
			return key[:i], key[i+1:]
		}
	}
	return "", key
}
