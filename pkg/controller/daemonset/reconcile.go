package daemonset

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync/atomic"
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
	"platform.io/client/record"
	"platform.io/client/rest"

	"platform.io/platform/pkg/controller/internal/history"
	"platform.io/platform/pkg/controller/internal/podcontrol"
)

// FailedDaemonPodReason is the event reason when a failed pod is deleted
// to be replaced.
const FailedDaemonPodReason = "FailedDaemonPod"

// Reconciler syncs one DaemonSet per key. As upstream, pods bound to a
// node that no longer exists are left to the pod garbage collector; only
// unbound ones meant for it are deleted here.
type Reconciler struct {
	lg           *zap.Logger
	sets         informer.Lister[*appsv1.DaemonSet]
	pods         informer.Lister[*corev1.Pod]
	nodes        informer.Lister[*corev1.Node]
	revisions    informer.Lister[*appsv1.ControllerRevision]
	clients      *client.Set
	control      *podcontrol.Control
	rec          record.Recorder
	expectations *ctrl.Expectations
	backoff      *backoff
	now          func() time.Time
}

var _ ctrl.Reconciler = (*Reconciler)(nil)

// Reconcile claims the DaemonSet's pods and revisions, makes sure its
// current revision exists, sends the writes compute asks for (only once
// earlier writes have been observed), writes the status and trims the
// history.
func (r *Reconciler) Reconcile(ctx context.Context, key string) (ctrl.Result, error) {
	ns, name, _ := strings.Cut(key, "/")
	ds, err := r.sets.Namespace(ns).Get(name)
	if apierrors.IsNotFound(err) {
		r.expectations.Forget(key)
		return ctrl.Result{}, nil
	}
	if err != nil {
		return ctrl.Result{}, fmt.Errorf("daemonset %s: %w", key, err)
	}
	sel, err := labels.FromLabelSelector(ds.Spec.Selector)
	if err != nil || sel.Empty() {
		r.rec.Eventf(ownerOf(ds).Reference(), corev1.EventTypeWarning, "SelectingAll", "This daemon set is selecting all pods or has an invalid selector: %v", err)
		return ctrl.Result{}, nil
	}
	v, revs, cc, err := r.load(ctx, ds, sel)
	if err != nil {
		return ctrl.Result{}, fmt.Errorf("daemonset %s: %w", key, err)
	}
	var p plan
	var execErr error
	if r.expectations.Satisfied(key) {
		p = compute(v)
		execErr = r.execute(ctx, key, ds, v.hash, p)
	}
	st, statusRequeue := computeStatus(v, cc)
	statusErr := r.writeStatus(ctx, ds, st)
	historyErr := r.truncateHistory(ctx, ds, v, revs)
	if err := errors.Join(execErr, statusErr, historyErr); err != nil {
		return ctrl.Result{}, fmt.Errorf("daemonset %s: %w", key, err)
	}
	p.wait(statusRequeue)
	return ctrl.Result{RequeueAfter: p.requeue}, nil
}

// load reads the nodes, claims pods and revisions, and resolves the
// current revision into a view.
func (r *Reconciler) load(ctx context.Context, ds *appsv1.DaemonSet, sel labels.Selector) (view, []*appsv1.ControllerRevision, *int32, error) {
	nodes, err := r.nodes.List(nil)
	if err != nil {
		return view{}, nil, nil, fmt.Errorf("list nodes: %w", err)
	}
	sort.Slice(nodes, func(i, j int) bool { return nodes[i].Name < nodes[j].Name })
	all, err := r.pods.Namespace(ds.Namespace).List(nil)
	if err != nil {
		return view{}, nil, nil, fmt.Errorf("list pods: %w", err)
	}
	pods, err := podcontrol.Claim(ctx, r.claimer(ds, sel, podcontrol.PodPatch(r.control.Writer(), ds.Namespace)), all, nil)
	if err != nil {
		return view{}, nil, nil, fmt.Errorf("claim pods: %w", err)
	}
	allRevs, err := r.revisions.Namespace(ds.Namespace).List(nil)
	if err != nil {
		return view{}, nil, nil, fmt.Errorf("list revisions: %w", err)
	}
	revs, err := podcontrol.Claim(ctx, r.claimer(ds, sel, func(ctx context.Context, name string, data []byte) error {
		_, err := r.clients.ControllerRevisions.Namespace(ds.Namespace).Patch(ctx, name, rest.StrategicMergePatchType, data, meta.WriteOptions{})
		return err
	}), allRevs, nil)
	if err != nil {
		return view{}, nil, nil, fmt.Errorf("claim revisions: %w", err)
	}
	var cc int32
	if ds.Status.CollisionCount != nil {
		cc = *ds.Status.CollisionCount
	}
	cur, err := r.currentRevision(ctx, ds, revs, &cc)
	if err != nil {
		return view{}, nil, nil, err
	}
	uid := ds.UID
	v := view{
		ds: ds, nodes: nodes, pods: pods, hash: cur.Labels[history.HashLabel], now: r.now(),
		inBackoff: func(node string) (time.Duration, bool) { return r.backoff.wait(string(uid) + "/" + node) },
	}
	return v, revs, &cc, nil
}

func (r *Reconciler) claimer(ds *appsv1.DaemonSet, sel labels.Selector, patch func(context.Context, string, []byte) error) *podcontrol.Claimer {
	owner := ownerOf(ds)
	return &podcontrol.Claimer{
		Owner: owner, Selector: sel, Patch: patch,
		CanAdopt: podcontrol.RecheckDeletion(owner, func(ctx context.Context) (*meta.ObjectMeta, error) {
			fresh, err := r.clients.DaemonSets.Namespace(ds.Namespace).Get(ctx, ds.Name, meta.GetOptions{})
			if err != nil {
				return nil, err
			}
			return &fresh.ObjectMeta, nil
		}),
	}
}

// currentRevision returns the revision holding the DaemonSet's template:
// the newest of those that do, renumbered to be the newest of all (a
// rollback), or a new one.
func (r *Reconciler) currentRevision(ctx context.Context, ds *appsv1.DaemonSet, revs []*appsv1.ControllerRevision, cc *int32) (*appsv1.ControllerRevision, error) {
	data, err := history.TemplateData(&ds.Spec.Template)
	if err != nil {
		return nil, err
	}
	want := history.New(&ds.ObjectMeta, ownerOf(ds).Ref(), ds.Spec.Template.Labels, data, 0, cc)
	var old []*appsv1.ControllerRevision
	var cur *appsv1.ControllerRevision
	for _, rev := range revs {
		switch {
		case !history.Equal(rev, want):
			old = append(old, rev)
		case cur == nil || rev.Revision > cur.Revision:
			cur = rev
		}
	}
	next := history.Next(old)
	c := r.clients.ControllerRevisions.Namespace(ds.Namespace)
	if cur == nil {
		want.Revision = next
		return history.Create(ctx, c, want, cc)
	}
	if cur.Revision < next {
		return history.Renumber(ctx, c, cur, next)
	}
	return cur, nil
}

// truncateHistory deletes the oldest revisions beyond
// revisionHistoryLimit that no pod wears and that are not current.
func (r *Reconciler) truncateHistory(ctx context.Context, ds *appsv1.DaemonSet, v view, revs []*appsv1.ControllerRevision) error {
	live := map[string]bool{history.Name(ds.Name, v.hash): true}
	for _, p := range v.pods {
		if h := p.Labels[history.HashLabel]; h != "" {
			live[history.Name(ds.Name, h)] = true
		}
	}
	limit := int32(10)
	if ds.Spec.RevisionHistoryLimit != nil {
		limit = *ds.Spec.RevisionHistoryLimit
	}
	var errs []error
	for _, rev := range history.ToDelete(revs, live, limit) {
		if rev.Labels[history.HashLabel] == v.hash {
			continue
		}
		uid := rev.UID
		err := r.clients.ControllerRevisions.Namespace(ds.Namespace).Delete(ctx, rev.Name, &meta.DeleteOptions{Preconditions: &meta.Preconditions{UID: &uid}})
		if err != nil && !apierrors.IsNotFound(err) {
			errs = append(errs, fmt.Errorf("delete revision %s: %w", rev.Name, err))
		}
	}
	return errors.Join(errs...)
}

// execute records the expectations of the plan's writes, then deletes and
// creates (in slow-start batches), marking every write that fails or is
// never sent as observed so that the next sync is not held up.
func (r *Reconciler) execute(ctx context.Context, key string, ds *appsv1.DaemonSet, hash string, p plan) error {
	if len(p.create) == 0 && len(p.delete) == 0 {
		return nil
	}
	r.expectations.Expect(key, len(p.create), len(p.delete))
	owner := ownerOf(ds)
	for _, node := range p.failed {
		r.backoff.next(string(ds.UID) + "/" + node)
	}
	var errs []error
	for _, pod := range p.delete {
		if pod.Status.Phase == corev1.PodFailed {
			r.rec.Eventf(owner.Reference(), corev1.EventTypeWarning, FailedDaemonPodReason,
				"Found failed daemon pod %s/%s on node %s, will try to kill it", pod.Namespace, pod.Name, targetNode(pod))
		}
		if err := r.control.DeletePod(ctx, owner, pod.Name); err != nil {
			r.expectations.Observed(key, false)
			if !apierrors.IsNotFound(err) {
				errs = append(errs, err)
			}
		}
	}
	var next, sent atomic.Int64
	_, err := podcontrol.SlowStartBatch(len(p.create), 1, func() error {
		node := p.create[next.Add(1)-1]
		sent.Add(1)
		_, err := r.control.CreatePod(ctx, &ds.Spec.Template, owner, func(pod *corev1.Pod) {
			pod.Labels[history.HashLabel] = hash
			withNodeAffinity(pod, node)
			withDefaultTolerations(pod)
		})
		if err != nil {
			r.expectations.Observed(key, true)
		}
		return err
	})
	for i := sent.Load(); i < int64(len(p.create)); i++ {
		r.expectations.Observed(key, true)
	}
	if err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}
