package registry

import (
	"bytes"
	"context"
	"fmt"
	"reflect"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/admission"
	"platform.io/platform/pkg/apiserver/storage"
	"platform.io/platform/pkg/apiserver/validation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// Part says which part of an object a write may change.
type Part int

// The writable parts.
const (
	// Main writes everything but status.
	Main Part = iota
	// StatusPart writes only status (the /status subresource).
	StatusPart
	// FinalizePart writes only what Resource.Finalize takes (/finalize).
	FinalizePart
)

// TransformFunc computes the object to store from the current one, which is
// nil when the object does not exist. It may modify and return current. It
// runs again when a write loses a race, so what it returns must not depend
// on changes the store made to an earlier result, except ones it repeats.
type TransformFunc func(ctx context.Context, current meta.Object) (meta.Object, error)

// UpdateOptions control Update.
type UpdateOptions struct {
	Part   Part
	DryRun bool
	// Patch marks a patch: it never fails on a stale resourceVersion, and
	// never creates.
	Patch bool
	// Replace marks a transform that ignores the current object (a PUT of
	// a whole object), which is then passed as nil and not decoded for it.
	Replace bool
	// Apply marks a server-side apply: its transform computes the
	// managedFields, and it creates the object where none exists.
	Apply bool
	// Subresource names the subresource written through a transform of
	// the whole object ("scale"), for admission; Part names the others.
	Subresource string
}

// subresource returns the subresource the write goes to, for admission.
func (o UpdateOptions) subresource() string {
	switch o.Part {
	case StatusPart:
		return "status"
	case FinalizePart:
		return "finalize"
	}
	return o.Subresource
}

// Update reads the object, applies transform and writes the result with a
// compare-and-swap, retrying patches on a lost race. It returns the stored
// object and whether it was created.
func (s *Store) Update(ctx context.Context, ns, name string, transform TransformFunc, opts UpdateOptions) (meta.Object, bool, error) {
	var out meta.Object
	var written []byte // what was stored, nil when nothing changed
	created := false
	key := s.key(ns, name)
	tryUpdate := func(cur storage.KV) ([]byte, error) {
		created, written = false, nil
		if cur.Value == nil {
			obj, err := s.createOnUpdate(ctx, ns, name, transform, opts)
			if err != nil {
				return nil, err
			}
			created, out = true, obj
			data, err := s.encode(ctx, obj)
			written = data
			return data, err
		}
		obj, old, err := s.transformExisting(ctx, cur, transform, opts)
		if err != nil {
			return nil, err
		}
		data, err := s.encode(ctx, obj)
		if err != nil {
			return nil, apierrors.NewInternalError(err)
		}
		out = obj
		if bytes.Equal(data, cur.Value) {
			out = old
			return nil, nil // nothing changed: keep the revision
		}
		written = data
		return data, nil
	}
	if opts.DryRun {
		cur, err := s.storage.Get(ctx, key)
		if err != nil && !isNotFound(err) {
			return nil, false, s.interpret(err, name)
		}
		if _, err := tryUpdate(cur); err != nil {
			return nil, false, s.interpret(err, name)
		}
		s.stamp(out, 0)
		return out, created, nil
	}
	kv, err := s.storage.GuaranteedUpdate(ctx, key, s.ttl(), tryUpdate)
	if err != nil {
		return nil, false, s.interpret(err, name)
	}
	s.wrote(kv.Revision)
	s.stamp(out, kv.Revision)
	if c := s.Resource.Convert; c != nil && c.ReadBack && written != nil {
		if out, err = s.decode(ctx, storage.KV{Key: key, Value: written, Revision: kv.Revision}); err != nil {
			return nil, false, err
		}
	}
	if _, err := s.finishDeletion(ctx, out, kv.Revision); err != nil {
		return nil, false, err
	}
	return out, created, nil
}

func (s *Store) createOnUpdate(ctx context.Context, ns, name string, transform TransformFunc, opts UpdateOptions) (meta.Object, error) {
	if opts.Part != Main || (opts.Patch || !s.Resource.AllowCreateOnUpdate) && !opts.Apply {
		return nil, apierrors.NewNotFound(s.Resource.GroupResource(), name)
	}
	obj, err := transform(ctx, nil)
	if err != nil {
		return nil, err
	}
	if rv := obj.GetObjectMeta().ResourceVersion; rv != "" {
		return nil, apierrors.NewNotFound(s.Resource.GroupResource(), name)
	}
	w := write{op: admission.Create, ns: ns, name: name, options: updateOptions(opts), dryRun: opts.DryRun, applied: opts.Apply}
	return s.admitCreate(ctx, w, obj)
}

// decodeAgain returns another copy of first, the object decoded from cur:
// decoded again, or, for a version converted from its storage version,
// copied, so that one write makes one conversion (a webhook call) of the
// stored object and not three.
func (s *Store) decodeAgain(ctx context.Context, cur storage.KV, first meta.Object) (meta.Object, error) {
	if s.Resource.Convert == nil {
		return s.decode(ctx, cur)
	}
	obj, err := convert(first, s.Resource.New)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	return obj, nil
}

// transformExisting applies transform to the current object and runs the
// update rules; it returns the new object and the old one.
func (s *Store) transformExisting(ctx context.Context, cur storage.KV, transform TransformFunc, opts UpdateOptions) (meta.Object, meta.Object, error) {
	old, err := s.decode(ctx, cur)
	if err != nil {
		return nil, nil, err
	}
	var input meta.Object
	if !opts.Replace {
		if input, err = s.decodeAgain(ctx, cur, old); err != nil {
			return nil, nil, err
		}
	}
	obj, err := transform(ctx, input)
	if err != nil {
		return nil, nil, err
	}
	// The status and finalize rules write into old itself; managedFields
	// compare the result with a copy of what was stored.
	prior := old
	if opts.Part != Main && s.fields != nil && !opts.Apply {
		if prior, err = s.decodeAgain(ctx, cur, old); err != nil {
			return nil, nil, err
		}
	}
	m, om := obj.GetObjectMeta(), old.GetObjectMeta()
	if err := s.checkVersion(m, om, opts); err != nil {
		return nil, nil, err
	}
	// Mutating admission sees the whole defaulted object; what the part
	// written may not change is then taken back from old.
	w := write{op: admission.Update, subresource: opts.subresource(), ns: om.Namespace, name: om.Name, options: updateOptions(opts), dryRun: opts.DryRun, applied: opts.Apply}
	// An apply computed its managedFields; the part's rules below must
	// not take them back from old.
	applied := m.ManagedFields
	if s.admitter(ctx) != nil {
		s.Resource.Strategy.Default(obj)
		if obj, err = s.mutate(ctx, w, obj, old); err != nil {
			return nil, nil, err
		}
		m = obj.GetObjectMeta()
	}
	switch {
	case opts.Part == StatusPart:
		obj = withStatusOf(old, obj)
		m = obj.GetObjectMeta()
	case opts.Part == FinalizePart:
		rv := m.ResourceVersion
		obj = s.Resource.Finalize(obj, old)
		m = obj.GetObjectMeta()
		m.ResourceVersion = rv
	case s.Resource.HasStatus:
		copyStatus(obj, old)
	}
	// Server-owned metadata carries over from the stored object; a uid the
	// client sent must match (validation checks it).
	if m.UID == "" {
		m.UID = om.UID
	}
	m.CreationTimestamp, m.Generation = om.CreationTimestamp, om.Generation
	m.DeletionTimestamp, m.DeletionGracePeriodSeconds = om.DeletionTimestamp, om.DeletionGracePeriodSeconds
	s.Resource.Strategy.Default(obj)
	if opts.Part == Main {
		s.Resource.Strategy.PrepareForUpdate(obj, old)
		if specChanged(obj, old) {
			m.Generation = om.Generation + 1
		}
	}
	errs := validation.ObjectMetaUpdate(m, om, field.NewPath("metadata"))
	errs = append(errs, s.Resource.Strategy.ValidateUpdate(ctx, obj, old)...)
	if len(errs) > 0 {
		return nil, nil, s.invalid(ctx, om.Name, errs)
	}
	if c, ok := s.Resource.Strategy.(WriteChecker); ok && opts.Part == Main {
		if err := c.CheckUpdate(ctx, obj, old); err != nil {
			return nil, nil, err
		}
	}
	if err := s.validateAdmission(ctx, w, obj, old); err != nil {
		return nil, nil, err
	}
	if opts.Apply {
		m.ManagedFields = applied
	}
	s.trackFields(ctx, w, prior, obj)
	return obj, old, nil
}

// checkVersion enforces optimistic locking on a replace.
func (s *Store) checkVersion(m, om *meta.ObjectMeta, opts UpdateOptions) error {
	if opts.Patch {
		return nil
	}
	switch {
	case m.ResourceVersion == "" && s.Resource.RequireResourceVersionOnUpdate:
		return apierrors.NewInvalid(s.Resource.GroupVersionKind(), om.Name, field.ErrorList{
			field.Invalid(field.NewPath("metadata", "resourceVersion"), m.ResourceVersion, "must be specified for an update"),
		}.Causes())
	case m.ResourceVersion != "" && m.ResourceVersion != om.ResourceVersion:
		return apierrors.NewConflict(s.Resource.GroupResource(), om.Name,
			fmt.Errorf("the object has been modified; please apply your changes to the latest version and try again"))
	}
	return nil
}

// withStatusOf returns old with only its status (and resourceVersion) taken from obj.
func withStatusOf(old, obj meta.Object) meta.Object {
	if f := statusField(old); f.IsValid() {
		f.Set(statusField(obj))
	}
	old.GetObjectMeta().ResourceVersion = obj.GetObjectMeta().ResourceVersion
	return old
}

// copyStatus sets obj's status to old's.
func copyStatus(obj, old meta.Object) {
	if f := statusField(obj); f.IsValid() {
		f.Set(statusField(old))
	}
}

// specChanged reports whether anything but metadata and status differs.
func specChanged(obj, old meta.Object) bool {
	a, b := reflect.ValueOf(obj).Elem(), reflect.ValueOf(old).Elem()
	t := a.Type()
	for i := 0; i < t.NumField(); i++ {
		switch t.Field(i).Name {
		case "TypeMeta", "ObjectMeta", "Status":
			continue
		}
		if !reflect.DeepEqual(a.Field(i).Interface(), b.Field(i).Interface()) {
			return true
		}
	}
	return false
}

func isNotFound(err error) bool {
	return err != nil && apierrors.IsNotFound(err) || isStorageNotFound(err)
}

// finishDeletion removes an object whose deletion is pending once its last
// finalizer is gone. An object in a graceful deletion (a grace period above
// 0, a pod its node is stopping) stays until a delete of grace 0 confirms
// it, whatever updates it gets meanwhile, as upstream's
// ShouldDeleteDuringUpdate decides. It returns true when it removed the object.
func (s *Store) finishDeletion(ctx context.Context, obj meta.Object, rev int64) (bool, error) {
	m := obj.GetObjectMeta()
	if m.DeletionTimestamp == nil || s.deletionBlocked(obj) || m.DeletionGracePeriodSeconds != nil && *m.DeletionGracePeriodSeconds > 0 {
		return false, nil
	}
	last, err := s.storage.Delete(ctx, s.key(m.Namespace, m.Name), func(cur storage.KV) error {
		if cur.Revision != rev {
			return fmt.Errorf("%w: object changed after its last finalizer was removed", storage.ErrConflict)
		}
		return nil
	})
	if err != nil && !isStorageNotFound(err) {
		return false, s.interpret(err, m.Name)
	}
	if err == nil {
		s.wrote(last.Revision)
	}
	return err == nil, nil
}
