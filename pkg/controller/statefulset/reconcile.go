package statefulset

import (
	"context"
	"errors"
	"fmt"
	"strings"
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

	"platform.io/platform/pkg/controller/internal/podcontrol"
)

// Reconciler syncs one StatefulSet per key. Limits: rollingUpdate.
// maxUnavailable (alpha upstream) is not honoured, pods are replaced one
// at a time; volumeClaimTemplates and persistentVolumeClaimRetentionPolicy
// are ignored because the API server serves no PersistentVolumeClaims.
type Reconciler struct {
	lg        *zap.Logger
	sets      informer.Lister[*appsv1.StatefulSet]
	pods      informer.Lister[*corev1.Pod]
	revisions informer.Lister[*appsv1.ControllerRevision]
	clients   *client.Set
	rec       record.Recorder
	now       func() time.Time
}

var _ ctrl.Reconciler = (*Reconciler)(nil)

// Reconcile claims the set's pods and revisions, makes sure the update
// revision exists, sends the writes compute asks for, writes the status
// and trims the history.
func (r *Reconciler) Reconcile(ctx context.Context, key string) (ctrl.Result, error) {
	ns, name, _ := strings.Cut(key, "/")
	set, err := r.sets.Namespace(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return ctrl.Result{}, nil
	}
	if err != nil {
		return ctrl.Result{}, fmt.Errorf("statefulset %s: %w", key, err)
	}
	sel, err := labels.FromLabelSelector(set.Spec.Selector)
	if err != nil || sel.Empty() {
		r.rec.Eventf(ownerOf(set).Reference(), corev1.EventTypeWarning, "InvalidSelector", "Invalid selector: %v", err)
		return ctrl.Result{}, nil
	}
	pods, err := r.claimPods(ctx, set, sel)
	if err != nil {
		return ctrl.Result{}, err
	}
	revs, err := r.claimRevisions(ctx, set, sel)
	if err != nil {
		return ctrl.Result{}, err
	}
	var cc int32
	if set.Status.CollisionCount != nil {
		cc = *set.Status.CollisionCount
	}
	rs, err := r.resolveRevisions(ctx, set, revs, &cc)
	if err != nil {
		return ctrl.Result{}, err
	}
	p := compute(view{set: set, pods: pods, current: rs.current.Name, updated: rs.update.Name, now: r.now()})
	execErr := r.execute(ctx, set, p.steps, rs)
	statusErr := r.writeStatus(ctx, set, computeStatus(set, pods, rs, cc, r.now()))
	historyErr := r.truncateHistory(ctx, set, pods, revs, rs)
	if err := errors.Join(execErr, statusErr, historyErr); err != nil {
		return ctrl.Result{}, fmt.Errorf("statefulset %s: %w", key, err)
	}
	return ctrl.Result{RequeueAfter: p.requeue}, nil
}

// claimPods returns the set's member pods, adopting orphans it selects
// whose names are its own and releasing those it no longer selects.
func (r *Reconciler) claimPods(ctx context.Context, set *appsv1.StatefulSet, sel labels.Selector) ([]*corev1.Pod, error) {
	all, err := r.pods.Namespace(set.Namespace).List(nil)
	if err != nil {
		return nil, fmt.Errorf("list pods: %w", err)
	}
	c := r.claimer(set, sel, func(ctx context.Context, name string, data []byte) error {
		_, err := r.clients.Pods.Namespace(set.Namespace).Patch(ctx, name, rest.StrategicMergePatchType, data, meta.WriteOptions{})
		return err
	})
	pods, err := podcontrol.Claim(ctx, c, all, func(p *corev1.Pod) bool {
		_, ok := ordinalOf(set, p)
		return ok
	})
	if err != nil {
		return nil, fmt.Errorf("claim pods: %w", err)
	}
	return pods, nil
}

// claimRevisions returns the set's revisions, adopting and releasing as
// claimPods does.
func (r *Reconciler) claimRevisions(ctx context.Context, set *appsv1.StatefulSet, sel labels.Selector) ([]*appsv1.ControllerRevision, error) {
	all, err := r.revisions.Namespace(set.Namespace).List(nil)
	if err != nil {
		return nil, fmt.Errorf("list revisions: %w", err)
	}
	c := r.claimer(set, sel, func(ctx context.Context, name string, data []byte) error {
		_, err := r.clients.ControllerRevisions.Namespace(set.Namespace).Patch(ctx, name, rest.StrategicMergePatchType, data, meta.WriteOptions{})
		return err
	})
	revs, err := podcontrol.Claim(ctx, c, all, nil)
	if err != nil {
		return nil, fmt.Errorf("claim revisions: %w", err)
	}
	return revs, nil
}

func (r *Reconciler) claimer(set *appsv1.StatefulSet, sel labels.Selector, patch func(context.Context, string, []byte) error) *podcontrol.Claimer {
	owner := ownerOf(set)
	return &podcontrol.Claimer{
		Owner: owner, Selector: sel, Patch: patch,
		CanAdopt: podcontrol.RecheckDeletion(owner, func(ctx context.Context) (*meta.ObjectMeta, error) {
			fresh, err := r.clients.StatefulSets.Namespace(set.Namespace).Get(ctx, set.Name, meta.GetOptions{})
			if err != nil {
				return nil, err
			}
			return &fresh.ObjectMeta, nil
		}),
	}
}
