package registry

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strconv"
	"sync/atomic"
	"time"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/jsontree"
	"platform.io/client/api/meta"
	"platform.io/client/codec/protobuf"

	"platform.io/platform/pkg/apiserver/admission"
	"platform.io/platform/pkg/apiserver/fieldmanager"
	"platform.io/platform/pkg/apiserver/storage"
)

// Decoder decodes a request body into v, whatever its encoding.
type Decoder func(v any) error

// Action serves a POST-only subresource such as pods/binding.
type Action func(ctx context.Context, s *Store, namespace, name string, decode Decoder, dryRun bool) (meta.Object, error)

// Store serves one Resource over storage.
type Store struct {
	Resource  *Resource
	storage   storage.Interface
	prefix    string
	admit     admission.Admitter
	now       func() time.Time
	mediaType string
	// fields keeps managedFields; nil when they are not tracked.
	fields *fieldmanager.FieldManager
	// lastWrite is the revision of the latest write through this store;
	// cached reads wait for it, so this server reads its own writes.
	lastWrite atomic.Int64
	// rootPrefix is StoragePrefix(prefix, Resource), made once.
	rootPrefix string
	// sharedKey names this store's decoded objects in a storage.Memo.
	sharedKey string
}

// Config is what a Store needs besides its Resource.
type Config struct {
	Storage storage.Interface
	// Prefix is the etcd key prefix, e.g. "/registry".
	Prefix string
	// Admission runs the admission chain on every write; nil admits all.
	Admission admission.Admitter
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// MediaType is how objects are written: MediaTypeProtobuf (the default)
	// or MediaTypeJSON. Either is read. Objects without a protobuf form
	// (Resource.Custom) are always written as JSON.
	MediaType string
	// FieldManager keeps metadata.managedFields on every write and serves
	// server-side apply; nil leaves managedFields as written and refuses
	// apply (the ServerSideApply feature gate off).
	FieldManager *fieldmanager.FieldManager
}

// NewStore returns the store of r.
func NewStore(r *Resource, c Config) *Store {
	now := c.Now
	if now == nil {
		now = time.Now
	}
	mt := c.MediaType
	if mt == "" {
		mt = MediaTypeProtobuf
	}
	if r.storageResource().Custom {
		mt = MediaTypeJSON
	}
	return &Store{Resource: r, storage: c.Storage, prefix: c.Prefix, admit: c.Admission, now: now, mediaType: mt, fields: c.FieldManager,
		rootPrefix: StoragePrefix(c.Prefix, r), sharedKey: "decoded " + r.GroupVersion().String() + ", Kind=" + r.Kind}
}

// FieldManager returns the store's field manager, nil when managedFields
// are not tracked.
func (s *Store) FieldManager() *fieldmanager.FieldManager { return s.fields }

// trackFields records the write's changes from old (nil on create) to obj
// in obj's managedFields, under the request's field manager.
func (s *Store) trackFields(ctx context.Context, w write, old, obj meta.Object) {
	if s.fields == nil || w.applied {
		return
	}
	s.fields.Update(old, obj, fieldmanager.ManagerFrom(ctx), w.subresource)
}

// StoragePrefix returns the key prefix under which r's objects are stored
// ("<prefix>/<group>/<resource>/"), shared by all versions of r.
func StoragePrefix(prefix string, r *Resource) string {
	sr := r.storageResource()
	group := sr.Group
	if group == "" {
		group = "core"
	}
	return path.Join(prefix, group, sr.Name) + "/"
}

// StorageResource returns the row whose version r's objects are stored in.
func StorageResource(r *Resource) *Resource { return r.storageResource() }

// keyPrefix returns the key prefix of all objects in namespace ns ("" for all namespaces).
func (s *Store) keyPrefix(ns string) string {
	p := s.rootPrefix
	if s.Resource.Namespaced && ns != "" {
		p += ns + "/"
	}
	return p
}

func (s *Store) key(ns, name string) string { return s.keyPrefix(ns) + name }

// encode serializes obj in the storage version, without its resourceVersion.
func (s *Store) encode(ctx context.Context, obj meta.Object) ([]byte, error) {
	m := obj.GetObjectMeta()
	rv, link := m.ResourceVersion, m.SelfLink
	m.ResourceVersion, m.SelfLink = "", ""
	defer func() { m.ResourceVersion, m.SelfLink = rv, link }()
	sr := s.Resource.storageResource()
	if sr != s.Resource {
		var converted meta.Object
		var err error
		if c := s.Resource.Convert; c != nil {
			converted, err = c.ToStorage(ctx, obj)
		} else {
			converted, err = convert(obj, sr.New)
		}
		if err != nil {
			return nil, err
		}
		obj = converted
	}
	tm := obj.GetTypeMeta()
	tm.APIVersion, tm.Kind = sr.GroupVersion().String(), sr.Kind
	if s.mediaType == MediaTypeJSON {
		return jsontree.Marshal(obj, true)
	}
	pm, ok := obj.(protobuf.Message)
	if !ok {
		return nil, fmt.Errorf("registry: %T has no protobuf encoding", obj)
	}
	return protobuf.Encode(tm.APIVersion, tm.Kind, pm), nil
}

// decode reads a stored object into the served version and stamps its
// resourceVersion and selfLink. ctx bounds a conversion (a webhook call).
func (s *Store) decode(ctx context.Context, kv storage.KV) (meta.Object, error) {
	c := s.Resource.Convert
	if c == nil {
		obj, err := s.decodeAs(kv, s.Resource)
		if err != nil {
			return nil, err
		}
		s.stamp(obj, kv.Revision)
		return obj, nil
	}
	obj, err := s.decodeAs(kv, s.Resource.storageResource())
	if err != nil {
		return nil, err
	}
	served, err := c.FromStorage(ctx, obj)
	if err != nil {
		// The conversion's error says what failed (a webhook names its
		// definition's kind), as upstream's; the key stays out of it.
		return nil, apierrors.NewInternalError(err)
	}
	s.stamp(served, kv.Revision)
	return served, nil
}

// decodeAs decodes a stored object into row r's kind (the served row, or
// the storage row before a conversion), with r's apiVersion and kind, its
// resourceVersion, and the defaults of r's schema when r defaults on read.
func (s *Store) decodeAs(kv storage.KV, r *Resource) (meta.Object, error) {
	obj := r.New()
	if err := decodeStored(kv.Value, obj); err != nil {
		return nil, apierrors.NewInternalError(fmt.Errorf("decode %s: %w", kv.Key, err))
	}
	if r.DefaultOnRead {
		r.Strategy.Default(obj)
	}
	tm := obj.GetTypeMeta()
	tm.APIVersion, tm.Kind = r.GroupVersion().String(), r.Kind
	if kv.Revision > 0 {
		obj.GetObjectMeta().ResourceVersion = formatRV(kv.Revision)
	}
	return obj, nil
}

// decodeList decodes the objects of kvs in the served version: with a
// conversion that converts lists (a webhook), all of them in one call.
func (s *Store) decodeList(ctx context.Context, kvs []storage.KV) ([]meta.Object, error) {
	out := make([]meta.Object, len(kvs))
	c := s.Resource.Convert
	if c == nil || c.FromStorageList == nil {
		for i, kv := range kvs {
			obj, err := s.decode(ctx, kv)
			if err != nil {
				return nil, err
			}
			out[i] = obj
		}
		return out, nil
	}
	for i, kv := range kvs {
		obj, err := s.decodeAs(kv, s.Resource.storageResource())
		if err != nil {
			return nil, err
		}
		out[i] = obj
	}
	if len(out) == 0 {
		return out, nil
	}
	served, err := c.FromStorageList(ctx, out)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	if len(served) != len(kvs) {
		return nil, apierrors.NewInternalError(fmt.Errorf("registry: %d objects converted into %d", len(kvs), len(served)))
	}
	for i, obj := range served {
		s.stamp(obj, kvs[i].Revision)
	}
	return served, nil
}

// decodeStored reads a stored value in whichever encoding it was written:
// the protobuf envelope (recognized by its prefix) or JSON, so data stays
// readable after --storage-media-type changes. Both versions of a kind share
// field names and numbers, so either decodes into the served version.
func decodeStored(data []byte, obj meta.Object) error {
	if bytes.HasPrefix(data, protobufPrefix) {
		m, ok := obj.(protobuf.Message)
		if !ok {
			return fmt.Errorf("%T has no protobuf encoding", obj)
		}
		_, _, err := protobuf.DecodeInto(data, m)
		return err
	}
	if u, ok := obj.(jsontree.Unchecked); ok {
		// One pass that checks as it reads (a custom object), instead of
		// encoding/json's check, its skip over the value and the decode;
		// encoding/json still says what is wrong with a broken value.
		err := u.DecodeJSON(data)
		if err == nil || json.Valid(data) {
			return err
		}
	}
	return json.Unmarshal(data, obj)
}

var protobufPrefix = protobuf.Prefix()

// Storage media types (--storage-media-type).
const (
	MediaTypeProtobuf = "application/vnd.platform.protobuf"
	MediaTypeJSON     = "application/json"
)

// stamp sets the served TypeMeta, resourceVersion and selfLink.
func (s *Store) stamp(obj meta.Object, rev int64) {
	tm := obj.GetTypeMeta()
	tm.APIVersion, tm.Kind = s.Resource.GroupVersion().String(), s.Resource.Kind
	m := obj.GetObjectMeta()
	if rev > 0 {
		m.ResourceVersion = formatRV(rev)
	}
	m.SelfLink = s.SelfLink(m.Namespace, m.Name)
}

// SelfLink returns the URL path of an object.
func (s *Store) SelfLink(ns, name string) string {
	r := s.Resource
	p := "/apis/" + r.Group + "/" + r.Version
	if r.Group == "" {
		p = "/api/" + r.Version
	}
	if r.Namespaced {
		p += "/namespaces/" + ns
	}
	return p + "/" + r.Name + "/" + name
}

// convert moves obj to another version of its kind by way of JSON, whose
// field names the versions share.
func convert(obj meta.Object, newFn func() meta.Object) (meta.Object, error) {
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	out := newFn()
	if err := json.Unmarshal(b, out); err != nil {
		return nil, err
	}
	return out, nil
}

var errNoWatch = errors.New("registry: the storage of this resource cannot watch")

func formatRV(rev int64) string { return strconv.FormatInt(rev, 10) }

// GetCached returns an object from the watch cache when the storage has
// one (it may lag behind etcd by moments), else from etcd; an object the
// cache lacks is read from etcd, so a fresh create is never missed.
func (s *Store) GetCached(ctx context.Context, ns, name string) (meta.Object, error) {
	if c, ok := s.storage.(interface {
		GetCached(key string) (storage.KV, bool)
		WaitRevision(ctx context.Context, rev int64, timeout time.Duration) error
	}); ok && c.WaitRevision(ctx, s.lastWrite.Load(), time.Second) == nil {
		if kv, ok := c.GetCached(s.key(ns, name)); ok {
			return s.decode(ctx, kv)
		}
	}
	return s.Get(ctx, ns, name)
}

// GetShared is GetCached, except that an object read from the watch cache
// is decoded once per stored version and the same object is returned to
// every caller until the object changes: the caller must not modify it.
// It suits readers on the hot path (admission plugins) that only look.
func (s *Store) GetShared(ctx context.Context, ns, name string) (meta.Object, error) {
	if c, ok := s.storage.(interface {
		GetCached(key string) (storage.KV, bool)
		WaitRevision(ctx context.Context, rev int64, timeout time.Duration) error
	}); ok && c.WaitRevision(ctx, s.lastWrite.Load(), time.Second) == nil {
		if kv, ok := c.GetCached(s.key(ns, name)); ok {
			return s.decodeShared(ctx, kv)
		}
	}
	return s.Get(ctx, ns, name)
}

// decodeShared decodes kv once per stored version when it came from the
// watch cache (which attaches a memo to each version), and every time
// otherwise. The object is shared: nobody may modify it.
func (s *Store) decodeShared(ctx context.Context, kv storage.KV) (meta.Object, error) {
	if kv.Memo == nil {
		return s.decode(ctx, kv)
	}
	// A shared object outlives the request that decodes it first: its
	// conversion is not bound to that request's context.
	v, err := kv.Memo.Value(s.sharedKey, func() (any, error) { return s.decode(context.WithoutCancel(ctx), kv) })
	if err != nil {
		return nil, err
	}
	return v.(meta.Object), nil
}

// ListCached lists the objects in namespace ns ("" for all) from the
// watch cache when the storage has one, once it holds every write made
// through this store: a server's own writes are never missed, as with
// GetCached.
func (s *Store) ListCached(ctx context.Context, ns string) (*List, error) {
	rv := "0"
	if w := s.lastWrite.Load(); w > 0 {
		rv = formatRV(w)
	}
	return s.List(ctx, ns, ListOptions{ResourceVersion: rv})
}

// wrote records the revision of a write through this store.
func (s *Store) wrote(rev int64) {
	for {
		cur := s.lastWrite.Load()
		if rev <= cur || s.lastWrite.CompareAndSwap(cur, rev) {
			return
		}
	}
}

// Get returns one object.
func (s *Store) Get(ctx context.Context, ns, name string) (meta.Object, error) {
	kv, err := s.storage.Get(ctx, s.key(ns, name))
	if err != nil {
		return nil, s.interpret(err, name)
	}
	return s.decode(ctx, kv)
}

// noSpaceError is the answer to a write etcd refused because its storage
// quota is used up. Like upstream it is a 500 InternalError (nothing a
// client can change, and not a 503 with Retry-After that clients would keep
// retrying: only an operator frees space), with a message that names the
// cause and the way out, and the storage error as its cause.
func noSpaceError(err error) error {
	e := apierrors.NewInternalError(err)
	e.ErrStatus.Message = "Internal error occurred: etcd refused the write because its storage quota is exceeded " +
		"(mvcc: database space exceeded, NOSPACE alarm). Reads keep working; writes fail until an operator " +
		"compacts and defragments etcd and disarms the alarm."
	return e
}

// interpret translates a storage error into an API error about this resource.
func (s *Store) interpret(err error, name string) error {
	gr := s.Resource.GroupResource()
	var se *apierrors.StatusError
	switch {
	case errors.As(err, &se):
		return err
	case errors.Is(err, storage.ErrNotFound):
		return apierrors.NewNotFound(gr, name)
	case errors.Is(err, storage.ErrAlreadyExists):
		return apierrors.NewAlreadyExists(gr, name)
	case errors.Is(err, storage.ErrConflict):
		return apierrors.NewConflict(gr, name, err)
	case errors.Is(err, storage.ErrExpired):
		return apierrors.NewResourceExpired(fmt.Sprintf("the resource version requested is too old: %v", err))
	case errors.Is(err, storage.ErrTooNew):
		e := apierrors.NewTimeout(fmt.Sprintf("Too large resource version: %v", err), 1)
		e.ErrStatus.Details.Causes = []meta.StatusCause{{Type: meta.CauseTypeResourceVersionTooLarge, Message: "Too large resource version"}}
		return e
	case errors.Is(err, context.DeadlineExceeded):
		return apierrors.NewTimeout(fmt.Sprintf("the %s request for %q timed out", gr, name), 1)
	case errors.Is(err, storage.ErrTooLarge):
		return apierrors.NewRequestEntityTooLarge(fmt.Sprintf("the stored form of %s %q is too large: %v", gr, name, err))
	case errors.Is(err, storage.ErrNoSpace):
		return noSpaceError(err)
	case errors.Is(err, storage.ErrUnavailable):
		return apierrors.NewServiceUnavailable(err.Error())
	default:
		return apierrors.NewInternalError(err)
	}
}
