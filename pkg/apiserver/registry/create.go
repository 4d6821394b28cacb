package registry

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"math/big"
	"reflect"

	"github.com/google/uuid"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/admission"
	"platform.io/platform/pkg/apiserver/storage"
	"platform.io/platform/pkg/apiserver/validation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// generateNameTries bounds the retries when a generated name is taken.
const generateNameTries = 8

// Create persists a new object and returns it as stored. With dryRun it
// runs every step but the write. A generated name is chosen before the
// strategy runs, so names derived from it (a job's labels) are right, and a
// taken name is retried with a fresh one.
func (s *Store) Create(ctx context.Context, obj meta.Object, dryRun bool) (meta.Object, error) {
	if s.Resource.Virtual != nil {
		return s.createVirtual(ctx, obj)
	}
	m := obj.GetObjectMeta()
	generated := m.Name == "" && m.GenerateName != ""
	input := obj
	var err error
	for try := 0; ; try++ {
		if generated {
			if try > 0 {
				if obj, err = convert(input, s.Resource.New); err != nil {
					return nil, apierrors.NewInternalError(err)
				}
				m = obj.GetObjectMeta()
			}
			m.Name = m.GenerateName + randomSuffix()
		}
		w := write{op: admission.Create, ns: m.Namespace, name: m.Name, options: createOptions(dryRun), dryRun: dryRun}
		if obj, err = s.admitCreate(ctx, w, obj); err != nil {
			return nil, err
		}
		m = obj.GetObjectMeta()
		if dryRun {
			// A dry run answers what the real request would, conflicts included.
			if _, err := s.storage.Get(ctx, s.key(m.Namespace, m.Name)); err == nil {
				return nil, apierrors.NewAlreadyExists(s.Resource.GroupResource(), m.Name)
			} else if !isStorageNotFound(err) {
				return nil, s.interpret(err, m.Name)
			}
			s.stamp(obj, 0)
			return obj, nil
		}
		data, err := s.encode(ctx, obj)
		if err != nil {
			return nil, apierrors.NewInternalError(err)
		}
		kv, err := s.storage.Create(ctx, s.key(m.Namespace, m.Name), data, s.ttl())
		if errors.Is(err, storage.ErrAlreadyExists) && generated && try < generateNameTries {
			continue
		}
		if err != nil {
			return nil, s.interpret(err, m.Name)
		}
		s.wrote(kv.Revision)
		if c := s.Resource.Convert; c != nil && c.ReadBack {
			return s.decode(ctx, storage.KV{Key: s.key(m.Namespace, m.Name), Value: data, Revision: kv.Revision})
		}
		s.stamp(obj, kv.Revision)
		return obj, nil
	}
}

func (s *Store) ttl() int64 {
	if s.Resource.TTLSeconds == nil {
		return 0
	}
	return s.Resource.TTLSeconds()
}

// admitCreate readies a new object for storage: server-owned metadata set
// and status cleared, defaults, mutating admission, the strategy's create
// rules, validation and validating admission. It returns the object to
// store.
func (s *Store) admitCreate(ctx context.Context, w write, obj meta.Object) (meta.Object, error) {
	m := obj.GetObjectMeta()
	m.UID = meta.UID(uuid.NewString())
	m.CreationTimestamp = meta.NewTime(s.now().UTC().Truncate(1e9))
	m.DeletionTimestamp, m.DeletionGracePeriodSeconds = nil, nil
	m.ResourceVersion, m.SelfLink = "", ""
	m.Generation = 1
	if s.Resource.HasStatus && !s.Resource.KeepStatusOnCreate {
		resetStatus(obj)
	}
	s.Resource.Strategy.Default(obj)
	obj, err := s.mutate(ctx, w, obj, nil)
	if err != nil {
		return nil, err
	}
	if s.admitter(ctx) != nil {
		s.Resource.Strategy.Default(obj)
	}
	s.Resource.Strategy.PrepareForCreate(obj)
	if err := s.validateCreate(ctx, obj); err != nil {
		return nil, err
	}
	if err := s.checkCreate(ctx, obj); err != nil {
		return nil, err
	}
	if err := s.validateAdmission(ctx, w, obj, nil); err != nil {
		return nil, err
	}
	s.trackFields(ctx, w, nil, obj)
	return obj, nil
}

func (s *Store) validateCreate(ctx context.Context, obj meta.Object) error {
	m := obj.GetObjectMeta()
	errs := validation.ObjectMeta(m, s.Resource.Namespaced, s.Resource.nameFunc(), field.NewPath("metadata"))
	errs = append(errs, s.Resource.Strategy.Validate(ctx, obj)...)
	if len(errs) > 0 {
		return s.invalid(ctx, nameForError(m), errs)
	}
	return nil
}

// invalid is the answer to a write whose validation found errs: 422
// Invalid, or 504 Timeout when the request's deadline passed meanwhile
// (validation stopped short, so errs may not be the object's fault), as
// upstream answers a request that outlives its deadline. The causes are
// kept either way.
func (s *Store) invalid(ctx context.Context, name string, errs field.ErrorList) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		e := apierrors.NewTimeout(fmt.Sprintf("request did not complete within requested timeout - %v", ctx.Err()), 0)
		e.ErrStatus.Details.Causes = errs.Causes()
		return e
	}
	return apierrors.NewInvalid(s.Resource.GroupVersionKind(), name, errs.Causes())
}

// checkCreate runs the strategy's WriteChecker, if any.
func (s *Store) checkCreate(ctx context.Context, obj meta.Object) error {
	if c, ok := s.Resource.Strategy.(WriteChecker); ok {
		return c.CheckCreate(ctx, obj)
	}
	return nil
}

func nameForError(m *meta.ObjectMeta) string {
	if m.Name == "" {
		return m.GenerateName
	}
	return m.Name
}

// resetStatus zeroes the Status field of obj, if it has one.
func resetStatus(obj meta.Object) {
	if f := statusField(obj); f.IsValid() {
		f.Set(reflect.Zero(f.Type()))
	}
}

// statusField returns the settable Status field of obj, or an invalid Value.
func statusField(obj meta.Object) reflect.Value {
	return reflect.ValueOf(obj).Elem().FieldByName("Status")
}

const suffixAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// randomSuffix returns 5 characters from an alphabet without vowels, so
// generated names do not spell words.
func randomSuffix() string {
	b := make([]byte, 5)
	max := big.NewInt(int64(len(suffixAlphabet)))
	for i := range b {
		n, err := rand.Int(rand.Reader, max)
		if err != nil {
			panic(err) // crypto/rand never fails on supported platforms
		}
		b[i] = suffixAlphabet[n.Int64()]
	}
	return string(b)
}

// Export strips what a user cannot set from obj, as the get parameter
// export=true asks; exact keeps the namespace and a generated name.
func Export(r *Resource, obj meta.Object, exact bool) {
	m := obj.GetObjectMeta()
	m.UID, m.ResourceVersion, m.SelfLink = "", "", ""
	m.CreationTimestamp, m.DeletionTimestamp = meta.Time{}, nil
	if !exact {
		m.Namespace = ""
		if m.GenerateName != "" {
			m.Name = ""
		}
	}
	if r.HasStatus {
		resetStatus(obj)
	}
}

// createVirtual answers a POST to a virtual resource: defaults, validates
// and lets the resource compute the answer; nothing is stored.
func (s *Store) createVirtual(ctx context.Context, obj meta.Object) (meta.Object, error) {
	s.Resource.Strategy.Default(obj)
	if errs := s.Resource.Strategy.Validate(ctx, obj); len(errs) > 0 {
		return nil, s.invalid(ctx, nameForError(obj.GetObjectMeta()), errs)
	}
	out, err := s.Resource.Virtual(ctx, obj)
	if err != nil {
		return nil, err
	}
	tm := out.GetTypeMeta()
	tm.APIVersion, tm.Kind = s.Resource.GroupVersion().String(), s.Resource.Kind
	return out, nil
}
