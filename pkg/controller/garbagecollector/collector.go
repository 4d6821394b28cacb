package garbagecollector

import (
	"context"
	"errors"
	"fmt"

	"go.uber.org/zap"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	ctrl "platform.io/client/controller"
	"platform.io/client/record"
)

// errInvalidNamespace marks a cluster-scoped object naming a namespaced
// owner: the reference can never resolve, so it is reported, not retried.
var errInvalidNamespace = errors.New("a cluster-scoped object cannot have a namespaced owner")

// errUnknownKind marks an owner reference to a kind discovery does not
// list: the work is retried until a discovery lists it.
var errUnknownKind = errors.New("kind not served (yet): retried after the next discovery")

// collector holds the two reconcilers' shared state.
type collector struct {
	lg    *zap.Logger
	g     *graph
	cat   *catalog
	rec   record.Recorder
	queue queues
}

// opsFor returns the ops of the kind id names.
func (c *collector) opsFor(id ref) (ops, bool) {
	return c.cat.get(id.groupKind())
}

// deleter is the attemptToDelete reconciler; keys are uids.
type deleter struct{ *collector }

// Reconcile decides whether the object uid should go, and acts.
func (d deleter) Reconcile(ctx context.Context, key string) (ctrl.Result, error) {
	v, ok := d.g.view(meta.UID(key))
	if !ok || v.beingDeleted && !v.deletingDependents {
		return ctrl.Result{}, nil // gone, or on its way out: its delete event does the rest
	}
	o, ok := d.opsFor(v.id)
	switch {
	case !ok && v.virtual:
		// Only references name it, with a kind discovery does not list:
		// perhaps a custom resource defined since the last discovery.
		// Retried, never taken for absent (which would delete its
		// dependents), as upstream.
		return ctrl.Result{}, fmt.Errorf("owner %s %s/%s: %w", v.id.APIVersion+" "+v.id.Kind, v.id.Namespace, v.id.Name, errUnknownKind)
	case !ok:
		d.g.virtualDelete(v.id) // its resource is no longer served: the object is gone
		return ctrl.Result{}, nil
	}
	if !v.virtual && !v.deletingDependents && d.ownersSolid(v) {
		return ctrl.Result{}, nil
	}
	latest, err := o.get(ctx, v.id.Namespace, v.id.Name)
	switch {
	case apierrors.IsNotFound(err):
		d.g.virtualDelete(v.id)
		return ctrl.Result{}, nil
	case err != nil:
		return ctrl.Result{}, fmt.Errorf("get %s %s/%s: %w", v.id.Kind, v.id.Namespace, v.id.Name, err)
	case latest.UID != v.id.UID:
		d.g.virtualDelete(v.id)
		return ctrl.Result{}, nil
	case v.virtual:
		return ctrl.Result{}, nil // it exists; its informer will show it
	case v.deletingDependents:
		return ctrl.Result{}, d.processDeletingDependents(ctx, o, v)
	case len(latest.OwnerReferences) == 0:
		return ctrl.Result{}, nil
	}
	solid, dangling, waiting, err := d.classify(ctx, v.id, latest.OwnerReferences)
	if errors.Is(err, errInvalidNamespace) {
		d.lg.Warn("owner reference names a namespaced owner from a cluster-scoped object", zap.String("kind", v.id.Kind), zap.String("name", v.id.Name))
		return ctrl.Result{}, nil
	}
	if err != nil {
		return ctrl.Result{}, err
	}
	it := item{finalizers: latest.Finalizers, hasDependents: len(v.dependents) > 0}
	for _, dep := range v.dependents {
		it.dependentDeletingDependents = it.dependentDeletingDependents || dep.deletingDependents
	}
	return ctrl.Result{}, d.apply(ctx, o, v.id, decide(solid, dangling, waiting, it))
}

// ownersSolid reports whether the graph alone shows every owner of v
// present and not waiting: nothing to do. A stale graph only delays work,
// since the owner's deletion, when it is seen, checks v again.
func (d deleter) ownersSolid(v view) bool {
	for _, o := range v.owners {
		if st, _ := d.g.owner(o, v.id.Namespace); st != ownerSolid {
			return false
		}
	}
	return true
}

// classify sorts the owners of the object id into solid, dangling (absent
// or replaced by another uid: verified with a live GET) and waiting for
// their dependents' deletion.
func (d deleter) classify(ctx context.Context, id ref, refs []meta.OwnerReference) (solid, dangling, waiting []meta.OwnerReference, err error) {
	for _, r := range refs {
		st, oid := d.g.owner(r, id.Namespace)
		if st == ownerUnknown {
			if st, err = d.lookupOwner(ctx, id, oid); err != nil {
				return nil, nil, nil, err
			}
		}
		switch st {
		case ownerDangling:
			dangling = append(dangling, r)
		case ownerWaiting:
			waiting = append(waiting, r)
		default:
			solid = append(solid, r)
		}
	}
	return solid, dangling, waiting, nil
}

// lookupOwner asks the API server about the owner oid of the object id.
func (d deleter) lookupOwner(ctx context.Context, id, oid ref) (ownerState, error) {
	o, ok := d.opsFor(oid)
	if !ok {
		return ownerUnknown, fmt.Errorf("owner %s %s/%s: %w", oid.APIVersion+" "+oid.Kind, oid.Namespace, oid.Name, errUnknownKind)
	}
	if o.info.Namespaced && id.Namespace == "" {
		return ownerUnknown, errInvalidNamespace
	}
	m, err := o.get(ctx, oid.Namespace, oid.Name)
	switch {
	case apierrors.IsNotFound(err):
		d.markAbsent(oid)
		return ownerDangling, nil
	case err != nil:
		return ownerUnknown, fmt.Errorf("get owner %s %s/%s: %w", oid.Kind, oid.Namespace, oid.Name, err)
	case m.UID != oid.UID:
		d.markAbsent(oid)
		return ownerDangling, nil
	case m.DeletionTimestamp != nil && m.HasFinalizer(meta.FinalizerDeleteDependents):
		return ownerWaiting, nil
	}
	return ownerSolid, nil
}

func (d deleter) markAbsent(id ref) {
	d.g.mu.Lock()
	defer d.g.mu.Unlock()
	d.g.absent.add(id)
}

// apply carries out a verdict on the object id.
func (d deleter) apply(ctx context.Context, o ops, id ref, v verdict) error {
	if len(v.removeRefs) > 0 {
		d.lg.Debug("removing dangling owner references", zap.String("kind", id.Kind), zap.String("namespace", id.Namespace), zap.String("name", id.Name))
		return ignoreGoneEdit(o.edit(ctx, id, metaChange{removeOwners: v.removeRefs}))
	}
	if !v.delete {
		return nil
	}
	if len(v.unblock) > 0 {
		if err := ignoreGoneEdit(o.edit(ctx, id, metaChange{unblock: v.unblock})); err != nil {
			return fmt.Errorf("unblock owners of %s %s/%s: %w", id.Kind, id.Namespace, id.Name, err)
		}
	}
	d.lg.Debug("deleting object", zap.String("kind", id.Kind), zap.String("namespace", id.Namespace),
		zap.String("name", id.Name), zap.String("propagation", string(v.policy)))
	uid, policy := id.UID, v.policy
	err := o.delete(ctx, id.Namespace, id.Name, &meta.DeleteOptions{
		Preconditions: &meta.Preconditions{UID: &uid}, PropagationPolicy: &policy})
	return ignoreGone(err)
}

// processDeletingDependents handles an owner in foreground deletion: once
// no dependent blocks it, its finalizer goes; until then the blocking
// dependents are asked to go (their deletions wake the owner again).
func (d deleter) processDeletingDependents(ctx context.Context, o ops, v view) error {
	block := blockers(v.dependents)
	if len(block) == 0 {
		return removeFinalizer(ctx, o, v.id, meta.FinalizerDeleteDependents)
	}
	for _, dep := range block {
		if !dep.deletingDependents {
			d.queue.delete(dep.id.UID)
		}
	}
	return nil
}

// orphaner is the attemptToOrphan reconciler; keys are uids of owners
// carrying the orphan finalizer.
type orphaner struct{ *collector }

// Reconcile removes the references to the owner uid from its dependents,
// then the owner's orphan finalizer.
func (r orphaner) Reconcile(ctx context.Context, key string) (ctrl.Result, error) {
	v, ok := r.g.view(meta.UID(key))
	if !ok {
		return ctrl.Result{}, nil
	}
	o, ok := r.opsFor(v.id)
	if !ok {
		return ctrl.Result{}, nil
	}
	var errs []error
	for _, dep := range v.dependents {
		do, ok := r.opsFor(dep.id)
		if !ok {
			continue
		}
		err := ignoreGoneEdit(do.edit(ctx, dep.id, metaChange{removeOwners: []meta.UID{v.id.UID}}))
		if err != nil {
			errs = append(errs, fmt.Errorf("orphan %s %s/%s: %w", dep.id.Kind, dep.id.Namespace, dep.id.Name, err))
		}
	}
	if len(errs) > 0 {
		return ctrl.Result{}, errors.Join(errs...)
	}
	if len(v.dependents) > 0 {
		r.rec.Eventf(&corev1.ObjectReference{APIVersion: v.id.APIVersion, Kind: v.id.Kind, Namespace: v.id.Namespace, Name: v.id.Name, UID: v.id.UID},
			corev1.EventTypeNormal, "OrphanedDependents", "Removed the owner reference to this object from %d dependents", len(v.dependents))
	}
	return ctrl.Result{}, removeFinalizer(ctx, o, v.id, meta.FinalizerOrphanDependents)
}

// removeFinalizer drops finalizer from the object id; the API server
// removes an object being deleted once its last finalizer is gone.
func removeFinalizer(ctx context.Context, o ops, id ref, finalizer string) error {
	if err := ignoreGoneEdit(o.edit(ctx, id, metaChange{finalizer: finalizer})); err != nil {
		return fmt.Errorf("remove finalizer %s from %s %s/%s: %w", finalizer, id.Kind, id.Namespace, id.Name, err)
	}
	return nil
}

// ignoreGone treats an object that is gone, or was replaced by one with
// another uid (the uid precondition fails as a conflict on delete, as
// invalid on patch), as done.
func ignoreGone(err error) error {
	if apierrors.IsNotFound(err) || apierrors.IsConflict(err) || apierrors.IsInvalid(err) {
		return nil
	}
	return err
}

// ignoreGoneEdit treats an object gone or replaced as done for an edit of
// its metadata (a replaced object fails the uid check as invalid). A
// conflict is not done: the edit did not happen.
func ignoreGoneEdit(err error) error {
	if apierrors.IsNotFound(err) || apierrors.IsInvalid(err) {
		return nil
	}
	return err
}
