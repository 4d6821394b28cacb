package fieldmanager

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"time"

	"go.uber.org/zap"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/merge"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
	"sigs.k8s.io/structured-merge-diff/v6/value"

	autoscalingv1 "platform.io/client/api/autoscaling/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
)

// Manager names the field manager of upstream's special entries.
const (
	// beforeFirstApply owns every field of an object written before
	// managedFields were kept, when it is first applied to.
	beforeFirstApply = "before-first-apply"
	// ancientChanges collects the oldest update managers past the cap.
	ancientChanges = "ancient-changes"
	// maxUpdateManagers is how many Update entries an object keeps.
	maxUpdateManagers = 10
)

// Config is what a FieldManager needs.
type Config struct {
	// Type parses objects of the kind; typed.DeducedParseableType for a
	// kind without a schema.
	Type typed.ParseableType
	// APIVersion is the served group/version the entries name.
	APIVersion string
	// Kind is the served kind an applied configuration must name.
	Kind string
	// New returns an empty object of the kind.
	New func() meta.Object
	// HasStatus says the kind's status is written only through /status:
	// a main-resource write neither owns nor conflicts on status, and a
	// status write owns nothing else.
	HasStatus bool
	// Now is the clock of the entries' times; nil means time.Now.
	Now func() time.Time
	// Scale parses autoscaling/v1 Scale, for apply on the kind's scale
	// subresource; nil when the kind has none.
	Scale *typed.ParseableType
}

// FieldManager keeps the managedFields of one served kind and version.
// It is safe for concurrent use.
type FieldManager struct {
	c       Config
	version fieldpath.APIVersion
	// updaters by subresource: "" for the main resource, "status".
	main, status *merge.Updater
	// what each does not own: whole subtrees; nil when nothing.
	mainExclude, statusExclude *fieldpath.Set
	// scale applies to the kind's Scale; nil without a scale subresource.
	scale *FieldManager
	// fullCompare makes Update compare whole objects, equal parts
	// included: the slow path the fast one is tested against.
	fullCompare bool
	// sets keeps decoded fieldsV1; nil decodes them on each write (the
	// slow path).
	sets *setCache
	// zeroNew says the kind's empty object is its Go type's zero value,
	// which a create's Go walk compares with; plans caches what that walk
	// needs of each struct type's fields.
	zeroNew bool
	plans   *structPlans
	// allocs keeps the value allocators of the create walks for reuse.
	allocs *sync.Pool
	lg     *zap.Logger
}

// New returns the field manager of a kind.
func New(lg *zap.Logger, c Config) *FieldManager {
	if c.Now == nil {
		c.Now = time.Now
	}
	v := fieldpath.APIVersion(c.APIVersion)
	f := &FieldManager{c: c, version: v, lg: lg, sets: &setCache{}, plans: &structPlans{},
		allocs: &sync.Pool{New: func() any { return value.NewFreelistAllocator() }}}
	if e := reflect.ValueOf(c.New()); e.Kind() == reflect.Pointer && !e.IsNil() && e.Elem().Kind() == reflect.Struct {
		f.zeroNew = e.Elem().IsZero()
	}
	f.mainExclude, f.statusExclude = notOwned(c.Type, c.HasStatus)
	f.main = (&merge.UpdaterBuilder{Converter: sameFields{}, IgnoreFilter: filterFor(v, f.mainExclude)}).BuildUpdater()
	f.status = (&merge.UpdaterBuilder{Converter: sameFields{}, IgnoreFilter: filterFor(v, f.statusExclude)}).BuildUpdater()
	if c.Scale != nil {
		f.scale = New(lg, Config{Type: *c.Scale, APIVersion: scaleVersion, Kind: "Scale", HasStatus: true, Now: c.Now,
			New: func() meta.Object { return &autoscalingv1.Scale{} }})
	}
	return f
}

func filterFor(v fieldpath.APIVersion, exclude *fieldpath.Set) map[fieldpath.APIVersion]fieldpath.Filter {
	if exclude == nil {
		return nil
	}
	return map[fieldpath.APIVersion]fieldpath.Filter{v: fieldpath.NewExcludeSetFilter(exclude)}
}

// notOwned returns what the main resource and the status subresource do
// not own, each path with all below it: status for the first, every
// other top-level field for the second (the fields upstream's strategies
// reset).
func notOwned(pt typed.ParseableType, hasStatus bool) (mainX, statusX *fieldpath.Set) {
	if !hasStatus {
		return nil, nil
	}
	mainX = fieldpath.NewSet(fieldpath.MakePathOrDie("status"))
	atom, ok := pt.Schema.Resolve(pt.TypeRef)
	if !ok || atom.Map == nil {
		return mainX, nil
	}
	others := fieldpath.NewSet()
	for _, f := range atom.Map.Fields {
		switch f.Name {
		case "status", "apiVersion", "kind", "metadata":
			continue
		}
		others.Insert(fieldpath.MakePathOrDie(f.Name))
	}
	for _, name := range []string{"labels", "annotations", "finalizers", "ownerReferences"} {
		others.Insert(fieldpath.MakePathOrDie("metadata", name))
	}
	return mainX, others
}

// sameFields is the converter between the served versions of a kind:
// they share field names, so an object needs no conversion.
type sameFields struct{}

func (sameFields) Convert(o *typed.TypedValue, _ fieldpath.APIVersion) (*typed.TypedValue, error) {
	return o, nil
}

func (sameFields) IsMissingVersionError(error) bool { return false }

func (f *FieldManager) updater(subresource string) *merge.Updater {
	if subresource == "status" {
		return f.status
	}
	return f.main
}

func (f *FieldManager) exclude(subresource string) *fieldpath.Set {
	if subresource == "status" {
		return f.statusExclude
	}
	return f.mainExclude
}

// stripped are the fields no manager owns: identity and server-set metadata.
var stripped = fieldpath.NewSet(
	fieldpath.MakePathOrDie("apiVersion"),
	fieldpath.MakePathOrDie("kind"),
	fieldpath.MakePathOrDie("metadata"),
	fieldpath.MakePathOrDie("metadata", "name"),
	fieldpath.MakePathOrDie("metadata", "namespace"),
	fieldpath.MakePathOrDie("metadata", "creationTimestamp"),
	fieldpath.MakePathOrDie("metadata", "selfLink"),
	fieldpath.MakePathOrDie("metadata", "uid"),
	fieldpath.MakePathOrDie("metadata", "clusterName"),
	fieldpath.MakePathOrDie("metadata", "generation"),
	fieldpath.MakePathOrDie("metadata", "managedFields"),
	fieldpath.MakePathOrDie("metadata", "resourceVersion"),
)

// Update records in obj's managedFields what manager changed from live
// (nil on create) to obj, the object about to be stored, written through
// subresource ("" for the main resource). managedFields the request set
// replace the live ones on a main-resource write; an empty list (or one
// empty entry) clears them. It never fails the write: an object whose
// fields cannot be tracked is stored without managedFields, as upstream.
func (f *FieldManager) Update(live, obj meta.Object, manager, subresource string) {
	if err := f.update(live, obj, manager, subresource); err != nil {
		f.lg.Error("cannot update managedFields; storing the object without them",
			zap.String("kind", f.c.Kind), zap.String("name", obj.GetObjectMeta().Name), zap.Error(err))
		obj.GetObjectMeta().ManagedFields = nil
	}
}

func (f *FieldManager) update(live, obj meta.Object, manager, subresource string) error {
	om := obj.GetObjectMeta()
	m, err := f.requestOrLive(live, om.ManagedFields, subresource)
	if err != nil {
		return err
	}
	created := live == nil
	if created {
		live = f.c.New()
	}
	restore := hideManaged(live, obj)
	if created && len(m.fields) == 0 && !f.fullCompare {
		// The common create: no managedFields yet, one entry to make.
		raw, err := f.createdFields(live, obj, subresource)
		if !errors.Is(err, errUnusual) {
			restore()
			if err != nil {
				return err
			}
			om.ManagedFields = f.createdEntries(raw, manager, subresource)
			return nil
		}
	}
	const self = "current-operation"
	err = f.record(&m, live, obj, created, self, subresource)
	restore()
	if err != nil {
		return err
	}
	if vs, ok := m.fields[self]; ok {
		delete(m.fields, self)
		id, err := m.identify(meta.ManagedFieldsEntry{Manager: manager, Operation: OperationUpdate, APIVersion: f.c.APIVersion, Subresource: subresource})
		if err != nil {
			return err
		}
		set := vs.Set().Difference(stripped)
		if prev, ok := m.fields[id]; ok {
			set = set.Union(prev.Set())
		}
		if !set.Empty() {
			m.fields[id] = fieldpath.NewVersionedSet(set, f.version, false)
			m.times[id] = f.now()
		}
	}
	if err := m.capUpdaters(); err != nil {
		return err
	}
	om.ManagedFields, err = m.encode()
	return err
}

// record records in m what manager changed from live into obj through
// subresource. The slow path compares the whole objects through the
// updater; the fast one compares only what the write changed.
func (f *FieldManager) record(m *managed, live, obj meta.Object, created bool, manager, subresource string) error {
	_, unstructured := obj.(unstructuredObject)
	if !f.fullCompare && !created && !unstructured && reflect.TypeOf(live) == reflect.TypeOf(obj) {
		all, err := f.changes(live, obj)
		if err != nil {
			return fmt.Errorf("failed to compare objects: %v", err)
		}
		// The typed live object only names the schema the managers'
		// sets are reconciled with: making it walks nothing.
		liveTV, err := f.structured(live)
		if err != nil {
			return fmt.Errorf("typed live object: %w", err)
		}
		return f.track(m, liveTV, all, manager, subresource)
	}
	liveView, newView := live, obj
	if !f.fullCompare && !created {
		liveView, newView = withoutEqualParts(live, obj)
	}
	liveTV, err := f.structured(liveView)
	if err != nil {
		return fmt.Errorf("typed live object: %w", err)
	}
	newTV, err := f.structured(newView)
	if err != nil {
		return fmt.Errorf("typed new object: %w", err)
	}
	if f.fullCompare {
		_, fields, err := f.updater(subresource).Update(liveTV, newTV, f.version, m.fields, manager)
		if err != nil {
			return err
		}
		m.fields = fields
		return nil
	}
	all, err := liveTV.Compare(newTV)
	if err != nil {
		return fmt.Errorf("failed to compare objects: %v", err)
	}
	return f.track(m, liveTV, all, manager, subresource)
}

// createdEntries are the managedFields of a created object whose
// manager owns the fields raw encodes: none when it owns none.
func (f *FieldManager) createdEntries(raw []byte, manager, subresource string) []meta.ManagedFieldsEntry {
	if string(raw) == "{}" {
		return nil
	}
	return []meta.ManagedFieldsEntry{{Manager: manager, Operation: OperationUpdate, APIVersion: f.c.APIVersion, Time: f.now(),
		FieldsType: fieldsV1, FieldsV1: &meta.FieldsV1{Raw: raw}, Subresource: subresource}}
}

// structured reads a Go object of the kind as a typed value. The object
// went through the kind's decoding and validation already and its Go type
// is what the schema was built from, so it is not validated again: that
// walk would double the cost of tracking a write.
func (f *FieldManager) structured(obj meta.Object) (*typed.TypedValue, error) {
	var v value.Value
	if u, ok := obj.(unstructuredObject); ok {
		m, err := u.UnstructuredContent()
		if err != nil {
			return nil, err
		}
		v = value.NewValueInterface(m)
	} else {
		var err error
		if v, err = value.NewValueReflect(obj); err != nil {
			return nil, err
		}
	}
	return typed.AsTypedUnvalidated(v, f.c.Type.Schema, f.c.Type.TypeRef), nil
}

// unstructuredObject is an object held as a JSON tree (a custom object).
// structured reads it as that tree: reflection would encode it with its
// MarshalJSON and decode the result, the most costly step of tracking a
// custom object's write.
type unstructuredObject interface {
	UnstructuredContent() (map[string]any, error)
}

// requestOrLive picks the managedFields a write starts from: the
// request's, unless it sent none, sent ones that do not decode, or writes
// a subresource; an empty list resets them.
func (f *FieldManager) requestOrLive(live meta.Object, sent []meta.ManagedFieldsEntry, subresource string) (managed, error) {
	var liveEntries []meta.ManagedFieldsEntry
	if live != nil {
		liveEntries = live.GetObjectMeta().ManagedFields
	}
	if subresource == "" {
		if isReset(sent) {
			return newManaged(), nil
		}
		if m, err := decodeManaged(sent, f.sets); err == nil && len(m.fields) > 0 {
			return m, nil
		}
	}
	m, err := decodeManaged(liveEntries, f.sets)
	if err != nil {
		// Stored garbage is dropped rather than failing every write.
		return newManaged(), nil
	}
	return m, nil
}

// hideManaged clears the managedFields of the objects while they are
// compared, and returns what puts them back.
func hideManaged(objs ...meta.Object) func() {
	saved := make([][]meta.ManagedFieldsEntry, len(objs))
	for i, o := range objs {
		m := o.GetObjectMeta()
		saved[i], m.ManagedFields = m.ManagedFields, nil
	}
	return func() {
		for i, o := range objs {
			o.GetObjectMeta().ManagedFields = saved[i]
		}
	}
}

func (f *FieldManager) now() *meta.Time {
	t := meta.NewTime(f.c.Now().UTC().Truncate(time.Second))
	return &t
}

// Apply merges config, an applied configuration in JSON, into live (nil
// when the object does not exist yet) as manager, through subresource.
// It returns the object to store, with its managedFields; a conflict with
// another manager's fields is a 409 listing each, unless force takes them.
func (f *FieldManager) Apply(live meta.Object, config []byte, manager, subresource string, force bool) (meta.Object, error) {
	created := live == nil
	if created {
		live = f.c.New()
	}
	m, err := decodeManaged(live.GetObjectMeta().ManagedFields, f.sets)
	if err != nil {
		m = newManaged()
	}
	// An object written before managedFields were kept has none: its
	// fields belong to one update manager, so the first apply conflicts.
	legacy := len(m.fields) == 0 && !created
	out, cfg, err := f.apply(live, &m, legacy, config, manager, subresource, force)
	if err != nil {
		return nil, err
	}
	if err := m.capUpdaters(); err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	entries, err := m.encode()
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	out.GetObjectMeta().ManagedFields = entries
	if manager == kubectlManager && subresource == "" {
		syncLastApplied(out, cfg)
	}
	return out, nil
}

// apply merges config into live, whose fields m says who owns, as
// manager through subresource, and leaves in m who owns what after. It
// returns the merged object, without managedFields, and the parsed
// configuration. live's managedFields are left as they were.
func (f *FieldManager) apply(live meta.Object, m *managed, legacy bool, config []byte, manager, subresource string, force bool) (meta.Object, map[string]any, error) {
	cfg, err := f.parseConfig(config)
	if err != nil {
		return nil, nil, err
	}
	configTV, err := f.c.Type.FromUnstructured(cfg)
	if err != nil {
		return nil, nil, apierrors.NewBadRequest(fmt.Sprintf("failed to create typed patch object (%s, Kind=%s): %v", f.c.APIVersion, f.c.Kind, err))
	}
	restore := hideManaged(live)
	defer restore()
	liveTV, err := f.c.Type.FromStructured(live, typed.AllowDuplicates)
	if err != nil {
		return nil, nil, apierrors.NewInternalError(fmt.Errorf("typed live object: %w", err))
	}
	if legacy {
		empty, err := f.c.Type.FromStructured(f.c.New())
		if err != nil {
			return nil, nil, apierrors.NewInternalError(err)
		}
		id, _ := m.identify(meta.ManagedFieldsEntry{Manager: beforeFirstApply, Operation: OperationUpdate, APIVersion: f.c.APIVersion})
		if _, m.fields, err = f.main.Update(empty, liveTV, f.version, m.fields, id); err != nil {
			return nil, nil, apierrors.NewInternalError(err)
		}
		if vs, ok := m.fields[id]; ok {
			m.fields[id] = fieldpath.NewVersionedSet(vs.Set().Difference(stripped), vs.APIVersion(), false)
		}
	}
	id, err := m.identify(meta.ManagedFieldsEntry{Manager: manager, Operation: OperationApply, Subresource: subresource})
	if err != nil {
		return nil, nil, apierrors.NewInternalError(err)
	}
	upd := f.updater(subresource)
	newTV, fields, err := upd.Apply(liveTV, configTV, f.version, copyFields(m.fields), id, force)
	var conflicts merge.Conflicts
	if errors.As(err, &conflicts) && !force && manager == kubectlManager && subresource == "" && f.migratable(live, liveTV, conflicts) {
		// Fields set by client-side apply pass to kubectl's server-side
		// apply without a conflict.
		newTV, fields, err = upd.Apply(liveTV, configTV, f.version, copyFields(m.fields), id, true)
	}
	if err != nil {
		if errors.As(err, &conflicts) {
			return nil, nil, conflictError(conflicts)
		}
		return nil, nil, apierrors.NewInternalError(fmt.Errorf("apply: %w", err))
	}
	prev, had := m.fields[id]
	m.fields = fields
	vs, has := m.fields[id]
	if has {
		vs = fieldpath.NewVersionedSet(vs.Set().Difference(stripped), vs.APIVersion(), true)
		m.fields[id] = vs
	}
	if newTV == nil {
		// The object is unchanged; the applier's entry is stamped if it
		// is new or owns other fields now.
		if has && (!had || !prev.Set().Equals(vs.Set())) {
			m.times[id] = f.now()
		}
		return live, cfg, nil
	}
	m.times[id] = f.now()
	out, err := f.fromTyped(newTV)
	if err != nil {
		return nil, nil, apierrors.NewInternalError(err)
	}
	return out, cfg, nil
}

func copyFields(in fieldpath.ManagedFields) fieldpath.ManagedFields {
	out := make(fieldpath.ManagedFields, len(in))
	for k, v := range in {
		out[k] = v
	}
	return out
}

// fromTyped decodes a merged value into a new object of the kind.
func (f *FieldManager) fromTyped(tv *typed.TypedValue) (meta.Object, error) {
	b, err := value.ToJSON(tv.AsValue())
	if err != nil {
		return nil, fmt.Errorf("encode merged object: %w", err)
	}
	out := f.c.New()
	if err := json.Unmarshal(b, out); err != nil {
		return nil, fmt.Errorf("decode merged object: %w", err)
	}
	return out, nil
}

// parseConfig reads an applied configuration and checks what upstream
// checks before merging: its apiVersion and kind, and no managedFields.
func (f *FieldManager) parseConfig(config []byte) (map[string]any, error) {
	var v any
	d := json.NewDecoder(bytes.NewReader(config))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("error decoding YAML: %v", err))
	}
	cfg, ok := numbers(v).(map[string]any)
	if !ok {
		return nil, apierrors.NewBadRequest("error decoding YAML: the applied configuration is not an object")
	}
	if av, _ := cfg["apiVersion"].(string); av != f.c.APIVersion {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("Incorrect version specified in apply patch. Specified patch version: %s, expected: %s", av, f.c.APIVersion))
	}
	if k, _ := cfg["kind"].(string); k != f.c.Kind {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("Incorrect kind specified in apply patch. Specified patch kind: %s, expected: %s", k, f.c.Kind))
	}
	if md, ok := cfg["metadata"].(map[string]any); ok {
		if mf, ok := md["managedFields"]; ok && mf != nil {
			return nil, apierrors.NewBadRequest("metadata.managedFields must be nil")
		}
	}
	return cfg, nil
}

// numbers turns json.Numbers into int64 where they are integers, float64
// otherwise, as structured-merge-diff's values expect.
func numbers(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = numbers(e)
		}
	case []any:
		for i, e := range t {
			t[i] = numbers(e)
		}
	case json.Number:
		if n, err := t.Int64(); err == nil {
			return n
		}
		f, _ := t.Float64()
		return f
	}
	return v
}
