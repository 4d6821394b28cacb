package registry

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/admission"
	"platform.io/platform/pkg/apiserver/storage"
	"platform.io/platform/pkg/apiserver/validation/field"
)

func isStorageNotFound(err error) bool { return errors.Is(err, storage.ErrNotFound) }

// DeleteResult is what a delete did.
type DeleteResult struct {
	// Object is the last state of the object.
	Object meta.Object
	// Deleted is true when the object is gone; false when its deletion is
	// pending on finalizers.
	Deleted bool
}

// ValidateDeleteOptions checks the body and parameters of a delete.
func ValidateDeleteOptions(o *meta.DeleteOptions) error {
	var errs field.ErrorList
	if o.OrphanDependents != nil && o.PropagationPolicy != nil {
		errs = append(errs, field.Invalid(field.NewPath("orphanDependents"), *o.OrphanDependents,
			"orphanDependents and propagationPolicy cannot both be set"))
	}
	if p := o.PropagationPolicy; p != nil {
		allowed := []meta.DeletionPropagation{meta.DeletePropagationOrphan, meta.DeletePropagationBackground, meta.DeletePropagationForeground}
		if !slices.Contains(allowed, *p) {
			errs = append(errs, field.NotSupported(field.NewPath("propagationPolicy"), *p, allowed))
		}
	}
	if g := o.GracePeriodSeconds; g != nil && *g < 0 {
		errs = append(errs, field.Invalid(field.NewPath("gracePeriodSeconds"), *g, "must be greater than or equal to 0"))
	}
	for i, d := range o.DryRun {
		if d != meta.DryRunAll {
			errs = append(errs, field.NotSupported(field.NewPath("dryRun").Index(i), d, []string{meta.DryRunAll}))
		}
	}
	if len(errs) > 0 {
		return apierrors.NewInvalid(meta.GroupVersionKind{Group: meta.GroupName, Version: "v1", Kind: "DeleteOptions"}, "", errs.Causes())
	}
	return nil
}

// Delete deletes an object, or starts its deletion when finalizers remain.
func (s *Store) Delete(ctx context.Context, ns, name string, opts *meta.DeleteOptions) (DeleteResult, error) {
	if err := ValidateDeleteOptions(opts); err != nil {
		return DeleteResult{}, err
	}
	dryRun := len(opts.DryRun) > 0
	key := s.key(ns, name)
	var res DeleteResult
	tryUpdate := func(cur storage.KV) ([]byte, error) {
		if cur.Value == nil {
			return nil, apierrors.NewNotFound(s.Resource.GroupResource(), name)
		}
		obj, err := s.decode(ctx, cur)
		if err != nil {
			return nil, err
		}
		if err := s.checkPreconditions(obj, opts.Preconditions); err != nil {
			return nil, err
		}
		w := write{op: admission.Delete, ns: ns, name: name, options: deleteOptions(opts), dryRun: dryRun}
		if err := s.validateAdmission(ctx, w, nil, obj); err != nil {
			return nil, err
		}
		res = DeleteResult{Object: obj}
		changed, now := s.startDeletion(obj, opts)
		if now {
			res.Deleted = true
			return nil, nil
		}
		if !changed || dryRun {
			return nil, nil
		}
		return s.encode(ctx, obj)
	}
	if dryRun {
		cur, err := s.storage.Get(ctx, key)
		if err != nil {
			return DeleteResult{}, s.interpret(err, name)
		}
		if _, err := tryUpdate(cur); err != nil {
			return DeleteResult{}, s.interpret(err, name)
		}
		return res, nil
	}
	kv, err := s.storage.GuaranteedUpdate(ctx, key, 0, tryUpdate)
	if err != nil {
		return DeleteResult{}, s.interpret(err, name)
	}
	s.wrote(kv.Revision)
	if !res.Deleted {
		s.stamp(res.Object, kv.Revision)
		return res, nil
	}
	last, err := s.storage.Delete(ctx, key, func(cur storage.KV) error {
		if cur.Revision != kv.Revision {
			return fmt.Errorf("%w: object changed during delete", storage.ErrConflict)
		}
		return nil
	})
	if errors.Is(err, storage.ErrConflict) {
		return s.Delete(ctx, ns, name, opts) // lost a race with a writer: decide again
	}
	if err != nil {
		return DeleteResult{}, s.interpret(err, name)
	}
	s.wrote(last.Revision)
	s.stamp(res.Object, last.Revision)
	return res, nil
}

// startDeletion applies a delete to obj: the propagation finalizers, then
// either "remove it now" (no finalizers, no grace period, nothing blocking)
// or the first phase: deletionTimestamp set to now plus the grace period.
// A later delete may shorten a grace period but never moves the timestamp
// later. changed reports whether obj must be written.
func (s *Store) startDeletion(obj meta.Object, opts *meta.DeleteOptions) (changed, now bool) {
	m := obj.GetObjectMeta()
	changed = updateDeletionFinalizers(m, opts)
	var grace int64
	graceful := false
	if gd, ok := s.Resource.Strategy.(GracefulDeleter); ok {
		grace, graceful = gd.GracePeriod(obj, opts.GracePeriodSeconds)
	}
	blocked := false
	if db, ok := s.Resource.Strategy.(DeletionBlocker); ok {
		blocked = db.DeletionBlocked(obj)
	}
	if len(m.Finalizers) == 0 && !blocked && grace == 0 {
		return changed, true
	}
	deadline := meta.NewTime(s.now().UTC().Truncate(1e9).Add(time.Duration(grace) * time.Second))
	switch {
	case m.DeletionTimestamp == nil:
		m.DeletionTimestamp, m.DeletionGracePeriodSeconds = &deadline, &grace
		if dp, ok := s.Resource.Strategy.(DeletePreparer); ok {
			dp.PrepareForDelete(obj)
		}
		changed = true
	case graceful && m.DeletionGracePeriodSeconds != nil && grace < *m.DeletionGracePeriodSeconds:
		if deadline.Before(m.DeletionTimestamp.Time) {
			m.DeletionTimestamp = &deadline
		}
		m.DeletionGracePeriodSeconds = &grace
		changed = true
	}
	return changed, false
}

// deletionBlocked reports whether obj, being deleted, must stay: it has
// finalizers, or its strategy holds it.
func (s *Store) deletionBlocked(obj meta.Object) bool {
	if len(obj.GetObjectMeta().Finalizers) > 0 {
		return true
	}
	db, ok := s.Resource.Strategy.(DeletionBlocker)
	return ok && db.DeletionBlocked(obj)
}

func (s *Store) checkPreconditions(obj meta.Object, p *meta.Preconditions) error {
	if p == nil {
		return nil
	}
	m := obj.GetObjectMeta()
	gr := s.Resource.GroupResource()
	if p.UID != nil && *p.UID != m.UID {
		return apierrors.NewConflict(gr, m.Name, fmt.Errorf("precondition failed: UID in precondition: %s, UID in object meta: %s", *p.UID, m.UID))
	}
	if p.ResourceVersion != nil && *p.ResourceVersion != m.ResourceVersion {
		return apierrors.NewConflict(gr, m.Name, fmt.Errorf("precondition failed: ResourceVersion in precondition: %s, ResourceVersion in object meta: %s", *p.ResourceVersion, m.ResourceVersion))
	}
	return nil
}

// updateDeletionFinalizers adds or removes the garbage collector's
// finalizers as the propagation policy asks, and reports a change.
func updateDeletionFinalizers(m *meta.ObjectMeta, o *meta.DeleteOptions) bool {
	policy := o.PropagationPolicy
	if o.OrphanDependents != nil {
		p := meta.DeletePropagationBackground
		if *o.OrphanDependents {
			p = meta.DeletePropagationOrphan
		}
		policy = &p
	}
	if policy == nil {
		return false
	}
	want := map[string]bool{
		meta.FinalizerOrphanDependents: *policy == meta.DeletePropagationOrphan,
		meta.FinalizerDeleteDependents: *policy == meta.DeletePropagationForeground,
	}
	changed := false
	for f, on := range want {
		has := m.HasFinalizer(f)
		switch {
		case on && !has:
			m.Finalizers = append(m.Finalizers, f)
			changed = true
		case !on && has:
			m.Finalizers = slices.DeleteFunc(m.Finalizers, func(x string) bool { return x == f })
			changed = true
		}
	}
	return changed
}
