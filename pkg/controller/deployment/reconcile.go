package deployment

import (
	"context"
	"fmt"
	"reflect"
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

// Reconciler syncs one Deployment per key.
type Reconciler struct {
	lg        *zap.Logger
	dLister   informer.Lister[*appsv1.Deployment]
	rsLister  informer.Lister[*appsv1.ReplicaSet]
	podLister informer.Lister[*corev1.Pod]
	dClient   *client.Client[appsv1.Deployment, *appsv1.Deployment]
	rsClient  *client.Client[appsv1.ReplicaSet, *appsv1.ReplicaSet]
	rec       record.Recorder
	now       func() time.Time
}

var _ ctrl.Reconciler = (*Reconciler)(nil)

// syncer is the state of one sync: the Deployment being worked on (a copy
// whose status and annotations change as the sync goes) and the original
// from the cache, against which the final writes are decided.
type syncer struct {
	*Reconciler
	ctx  context.Context
	orig *appsv1.Deployment
	// base is orig copied the way d was, so unchanged fields of d compare
	// equal to it whatever the copy does to empty values.
	base *appsv1.Deployment
	d    *appsv1.Deployment
	// requeue asks for a later visit (the progress deadline).
	requeue time.Duration
}

// Reconcile moves the Deployment named by key one step toward its
// template and replica count.
func (r *Reconciler) Reconcile(ctx context.Context, key string) (ctrl.Result, error) {
	ns, name := splitKey(key)
	orig, err := r.dLister.Namespace(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return ctrl.Result{}, nil
	}
	if err != nil {
		return ctrl.Result{}, fmt.Errorf("read deployment %s: %w", key, err)
	}
	s := &syncer{Reconciler: r, ctx: ctx, orig: orig, base: podcontrol.Clone(orig), d: podcontrol.Clone(orig)}
	if err := s.sync(); err != nil {
		return ctrl.Result{}, fmt.Errorf("sync deployment %s: %w", key, err)
	}
	return ctrl.Result{RequeueAfter: s.requeue}, nil
}

// sync is upstream's syncDeployment.
func (s *syncer) sync() error {
	d := s.d
	sel, err := labels.FromLabelSelector(d.Spec.Selector)
	if err != nil {
		return fmt.Errorf("selector: %w: %w", err, ctrl.ErrTerminal)
	}
	if sel.Empty() {
		s.rec.Eventf(s.ref(), corev1.EventTypeWarning, "SelectingAll", "This deployment is selecting all pods. A non-empty selector is required.")
		if d.Status.ObservedGeneration < d.Generation {
			d.Status.ObservedGeneration = d.Generation
			return s.flush()
		}
		return nil
	}
	rsList, err := s.claimReplicaSets(sel)
	if err != nil {
		return err
	}
	if d.DeletionTimestamp != nil {
		return s.syncStatusOnly(rsList)
	}
	s.checkPausedConditions()
	if d.Spec.Paused {
		return s.syncScale(rsList)
	}
	if rollbackTo(d) != nil {
		return s.rollback(rsList)
	}
	if s.isScalingEvent(rsList) {
		return s.syncScale(rsList)
	}
	if !isRollingUpdate(d) {
		podMap, err := s.podMap(rsList, sel)
		if err != nil {
			return err
		}
		return s.rolloutRecreate(rsList, podMap)
	}
	return s.rolloutRolling(rsList)
}

// ref is the Deployment as the involved object of events.
func (s *syncer) ref() corev1.ObjectReference { return s.owner().Reference() }

func (s *syncer) owner() podcontrol.Owner {
	return podcontrol.Owner{Meta: &s.orig.ObjectMeta, GVK: appsv1.Kind("Deployment")}
}

// claimReplicaSets adopts and releases ReplicaSets by the selector and
// returns copies of the ones the Deployment owns.
func (s *syncer) claimReplicaSets(sel labels.Selector) ([]*appsv1.ReplicaSet, error) {
	all, err := s.rsLister.Namespace(s.d.Namespace).List(labels.Everything())
	if err != nil {
		return nil, fmt.Errorf("list replicasets: %w", err)
	}
	owner := s.owner()
	rsc := s.rsClient.Namespace(s.d.Namespace)
	c := &podcontrol.Claimer{
		Owner:    owner,
		Selector: sel,
		Patch: func(ctx context.Context, name string, data []byte) error {
			_, err := rsc.Patch(ctx, name, rest.StrategicMergePatchType, data, meta.WriteOptions{})
			return err
		},
		CanAdopt: podcontrol.RecheckDeletion(owner, func(ctx context.Context) (*meta.ObjectMeta, error) {
			fresh, err := s.dClient.Namespace(s.d.Namespace).Get(ctx, s.d.Name, meta.GetOptions{})
			if err != nil {
				return nil, err
			}
			return &fresh.ObjectMeta, nil
		}),
	}
	claimed, err := podcontrol.Claim(s.ctx, c, all, nil)
	if err != nil {
		return nil, fmt.Errorf("claim replicasets: %w", err)
	}
	out := make([]*appsv1.ReplicaSet, len(claimed))
	for i, rs := range claimed {
		out[i] = podcontrol.Clone(rs)
	}
	return out, nil
}

// podMap groups the pods the selector matches by the uid of the
// ReplicaSet of rsList that controls them.
func (s *syncer) podMap(rsList []*appsv1.ReplicaSet, sel labels.Selector) (map[meta.UID][]*corev1.Pod, error) {
	pods, err := s.podLister.Namespace(s.d.Namespace).List(sel)
	if err != nil {
		return nil, fmt.Errorf("list pods: %w", err)
	}
	m := map[meta.UID][]*corev1.Pod{}
	for _, rs := range rsList {
		m[rs.UID] = nil
	}
	for _, p := range pods {
		ref := podcontrol.ControllerOf(&p.ObjectMeta)
		if ref == nil {
			continue
		}
		if _, ok := m[ref.UID]; ok {
			m[ref.UID] = append(m[ref.UID], p)
		}
	}
	return m, nil
}

// flush writes what the sync changed: annotations and spec with an update
// of the Deployment, then the status.
func (s *syncer) flush() error {
	cur := s.orig
	dc := s.dClient.Namespace(s.d.Namespace)
	if !reflect.DeepEqual(s.d.Annotations, s.base.Annotations) || !reflect.DeepEqual(s.d.Spec, s.base.Spec) {
		cp := podcontrol.Clone(s.d)
		cp.Status = s.orig.Status
		updated, err := dc.Update(s.ctx, cp, meta.WriteOptions{})
		if err != nil {
			return fmt.Errorf("update deployment: %w", err)
		}
		cur = updated
	}
	if reflect.DeepEqual(s.d.Status, cur.Status) {
		return nil
	}
	cp := podcontrol.Clone(cur)
	cp.Status = s.d.Status
	if _, err := dc.UpdateStatus(s.ctx, cp, meta.WriteOptions{}); err != nil {
		return fmt.Errorf("update deployment status: %w", err)
	}
	return nil
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
