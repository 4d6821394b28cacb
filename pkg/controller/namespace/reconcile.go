package namespace

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"go.uber.org/zap"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/client"
	ctrl "platform.io/client/controller"
	"platform.io/client/discovery"
	"platform.io/client/informer"
	"platform.io/client/rest"

	"platform.io/platform/pkg/controller/internal/podcontrol"
)

// namespaceWriter is what the loop writes to the API server.
type namespaceWriter interface {
	updateStatus(ctx context.Context, ns *corev1.Namespace) (*corev1.Namespace, error)
	finalize(ctx context.Context, ns *corev1.Namespace) error
}

// parallelDeletes bounds the delete collections one namespace sends at once.
const parallelDeletes = 8

// reconciler empties and finalizes one Terminating namespace; keys are
// namespace names.
type reconciler struct {
	lg     *zap.Logger
	lister informer.Lister[*corev1.Namespace]
	// discover returns the served resources, read after the call began
	// (a namespace's pass never works from a list read before it, which
	// could miss a custom resource defined just before).
	discover func(ctx context.Context) (discovery.Snapshot, error)
	content  content
	write    namespaceWriter
	now      func() time.Time
}

var _ ctrl.Reconciler = (*reconciler)(nil)

// Reconcile deletes the content of the namespace key if it is being
// deleted, reports progress in its conditions, and removes the "platform"
// finalizer once nothing is left.
func (r *reconciler) Reconcile(ctx context.Context, key string) (ctrl.Result, error) {
	ns, err := r.lister.Get(key)
	if apierrors.IsNotFound(err) {
		return ctrl.Result{}, nil
	}
	if err != nil {
		return ctrl.Result{}, fmt.Errorf("namespace %s: %w", key, err)
	}
	if ns.DeletionTimestamp == nil || !slices.Contains(ns.Spec.Finalizers, corev1.FinalizerPlatform) {
		return ctrl.Result{}, nil
	}
	ns = podcontrol.Clone(ns)
	snap, derr := r.discover(ctx)
	out, grace := r.deleteContent(ctx, ns.Name, deletable(snap))
	out.discoveryFailure = discoveryFailure(snap, derr)
	if err := r.report(ctx, ns, out); err != nil {
		return ctrl.Result{}, err
	}
	switch {
	case len(out.contentErrors) > 0:
		return ctrl.Result{}, fmt.Errorf("namespace %s: %d resources failed: %s", ns.Name, len(out.contentErrors), out.contentErrors[0])
	case out.discoveryFailure != "":
		// What could be discovered was deleted; the namespace stays until
		// every group can be read, as some of them may hold its objects.
		return ctrl.Result{}, fmt.Errorf("namespace %s: %s", ns.Name, out.discoveryFailure)
	case grace > 0:
		return ctrl.Result{RequeueAfter: time.Duration(grace) * time.Second}, nil
	case len(out.remaining) > 0:
		return ctrl.Result{Requeue: true}, nil // finalizers of others hold content: back off
	}
	ns.Spec.Finalizers = slices.DeleteFunc(ns.Spec.Finalizers, func(f corev1.FinalizerName) bool { return f == corev1.FinalizerPlatform })
	err = r.write.finalize(ctx, ns)
	switch {
	case apierrors.IsNotFound(err):
		return ctrl.Result{}, nil
	case apierrors.IsConflict(err):
		return ctrl.Result{Requeue: true}, nil // the cache was behind: look again once it caught up
	case err != nil:
		return ctrl.Result{}, fmt.Errorf("finalize namespace %s: %w", ns.Name, err)
	}
	r.lg.Info("namespace emptied and finalized", zap.String("namespace", ns.Name))
	return ctrl.Result{}, nil
}

// deleteContent deletes every resource's objects in ns, then counts what
// is left; grace is the longest grace period of a pod still terminating,
// so the next pass waits for it. Resources are emptied in parallel, at most
// parallelDeletes at once: the API server deletes a collection one object
// after another.
func (r *reconciler) deleteContent(ctx context.Context, ns string, resources []discovery.Resource) (out outcome, grace int64) {
	out = outcome{remaining: map[string]int{}, finalizers: map[string]int{}}
	var mu sync.Mutex // guards out and grace
	var wg sync.WaitGroup
	sem := make(chan struct{}, parallelDeletes)
	for _, res := range resources {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			left, err := r.emptyResource(ctx, res, ns)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil:
				out.contentErrors = append(out.contentErrors, err.Error())
			case left.count > 0:
				out.remaining[res.Name+"."+res.Group] += left.count
				for f, n := range left.finalizers {
					out.finalizers[f] += n
				}
				grace = max(grace, left.graceSeconds)
			}
		}()
	}
	wg.Wait()
	return out, grace
}

// emptyResource deletes the objects of res in ns and returns what is left.
func (r *reconciler) emptyResource(ctx context.Context, res discovery.Resource, ns string) (leftover, error) {
	if err := r.content.deleteAll(ctx, res, ns); err != nil {
		return leftover{}, err
	}
	return r.content.left(ctx, res, ns)
}

// report writes the conditions describing out into ns's status when they
// change; the phase stays Terminating.
func (r *reconciler) report(ctx context.Context, ns *corev1.Namespace, out outcome) error {
	conds, changed := mergeConditions(ns.Status.Conditions, conditions(out), meta.NewTime(r.now()))
	if !changed && ns.Status.Phase == corev1.NamespaceTerminating {
		return nil
	}
	ns.Status.Conditions, ns.Status.Phase = conds, corev1.NamespaceTerminating
	updated, err := r.write.updateStatus(ctx, ns)
	switch {
	case apierrors.IsNotFound(err):
		return nil
	case err != nil: // a conflict too: retried with the newer object
		return fmt.Errorf("status of namespace %s: %w", ns.Name, err)
	}
	*ns = *updated
	return nil
}

// apiWriter writes through the typed namespace client and the finalize
// subresource.
type apiWriter struct {
	c  *client.Set
	rc *rest.Client
}

func (w apiWriter) updateStatus(ctx context.Context, ns *corev1.Namespace) (*corev1.Namespace, error) {
	return w.c.Namespaces.UpdateStatus(ctx, ns, meta.WriteOptions{})
}

// finalize replaces spec.finalizers through PUT .../namespaces/{name}/finalize.
func (w apiWriter) finalize(ctx context.Context, ns *corev1.Namespace) error {
	body := podcontrol.Clone(ns)
	body.TypeMeta = meta.TypeMeta{APIVersion: "v1", Kind: "Namespace"}
	err := w.rc.Put().Version("v1").Resource("namespaces").Name(ns.Name).
		SubResource(client.SubresourceFinalize).Body(body).Do(ctx).Error()
	if err != nil {
		return fmt.Errorf("PUT namespaces/%s/finalize: %w", ns.Name, err)
	}
	return nil
}
