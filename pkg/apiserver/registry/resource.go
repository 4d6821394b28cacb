package registry

import (
	"context"
	"strings"

	"sigs.k8s.io/structured-merge-diff/v6/typed"

	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/validation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// Resource is one row of the registry: a resource served in one group version.
type Resource struct {
	Group    string
	Version  string
	Name     string // plural, as in URLs: "pods"
	Singular string // "pod"
	Kind     string // "Pod"
	// ListKind is the kind of lists; empty means Kind+"List".
	ListKind string
	// ShortNames and Categories are advertised in discovery ("po", "all").
	ShortNames []string
	Categories []string
	Namespaced bool
	// Custom marks a custom resource: its objects are JSON trees with no
	// protobuf form and no Go schema, so they are stored as JSON, a
	// request that accepts only protobuf gets 406, and strategic merge
	// patch is refused with 415, as upstream does.
	Custom bool
	// Prune, when set, removes from a decoded request object the fields
	// its schema does not name and returns their paths ("spec.foo"): the
	// request's fieldValidation decides whether they are refused (Strict),
	// reported as warnings (Warn) or dropped silently (Ignore).
	Prune func(obj meta.Object) []string
	// ApplyType, when set, is the structured-merge-diff type server-side
	// apply merges the objects by (a custom resource's, built from its
	// schema); nil means the one built from the Go types' definitions.
	ApplyType *typed.ParseableType
	// Warning, when set, is sent with every response of this resource (a
	// deprecated version of a custom resource).
	Warning string
	// DefaultOnRead runs the strategy's Default on every object read from
	// storage too (custom resources, whose schema defaults apply on read).
	DefaultOnRead bool
	// New returns an empty object of the served kind.
	New func() meta.Object
	// Strategy holds the per-type rules.
	Strategy Strategy
	// NameFunc checks object names; nil means a DNS subdomain.
	NameFunc validation.NameFunc
	// HasStatus says the object has a status stanza written only through /status.
	HasStatus bool
	// KeepStatusOnCreate lets a create carry status (nodes register with it).
	KeepStatusOnCreate bool
	// Scale, when set, serves the scale subresource.
	Scale *ScaleAccessor
	// Actions are POST-only subresources such as pods/binding, by subresource name.
	Actions map[string]Action
	// ActionKinds names the body kind of an action that is not the one
	// named after it in the resource's group version (serviceaccounts/token
	// takes an authentication.platform.io/v1 TokenRequest).
	ActionKinds map[string]meta.GroupVersionKind
	// AllowCreateOnUpdate lets PUT create a missing object.
	AllowCreateOnUpdate bool
	// RequireResourceVersionOnUpdate rejects PUT without metadata.resourceVersion.
	RequireResourceVersionOnUpdate bool
	// Storage, when set, is the resource this one is stored as (another
	// version of the same kind); objects convert to it on write and back on read.
	Storage *Resource
	// Convert, when set, moves objects between this version and Storage's
	// (versions whose fields differ, such as autoscaling/v1 and v2); nil
	// converts by the field names the versions share.
	Convert *Conversion
	// TTLSeconds, when set, gives objects an expiry (events).
	TTLSeconds func() int64
	// Table, when set, gives the resource custom Table columns; nil means
	// the default two columns, Name and Created At.
	Table *TableColumns
	// Virtual, when set, makes the resource an operation rather than stored
	// objects: POST runs the strategy's defaulting and validation, then
	// Virtual answers with the object (its status filled in). Nothing is
	// stored, and every other verb is refused.
	Virtual func(ctx context.Context, obj meta.Object) (meta.Object, error)
	// Finalize, when set, serves PUT {name}/finalize: it returns old with the
	// finalizers of the request's object (a namespace's spec.finalizers).
	Finalize func(obj, old meta.Object) meta.Object
	// SelectableFields returns the fields a fieldSelector may name besides
	// metadata.name and metadata.namespace, with their values for obj.
	SelectableFields func(obj meta.Object) map[string]string
}

// Fields returns every selectable field of obj with its value.
func (r *Resource) Fields(obj meta.Object) map[string]string {
	m := obj.GetObjectMeta()
	f := map[string]string{"metadata.name": m.Name}
	if r.Namespaced {
		f["metadata.namespace"] = m.Namespace
	}
	if r.SelectableFields != nil {
		for k, v := range r.SelectableFields(obj) {
			f[k] = v
		}
	}
	return f
}

// ListKindName returns the kind of the resource's lists.
func (r *Resource) ListKindName() string {
	if r.ListKind != "" {
		return r.ListKind
	}
	return r.Kind + "List"
}

// GroupVersion returns the served group version.
func (r *Resource) GroupVersion() meta.GroupVersion {
	return meta.GroupVersion{Group: r.Group, Version: r.Version}
}

// GroupResource returns the group and plural name.
func (r *Resource) GroupResource() meta.GroupResource {
	return meta.GroupResource{Group: r.Group, Resource: r.Name}
}

// ActionKind returns the body kind of action name: its ActionKinds entry,
// else the capitalized name in r's group version ("binding": Binding).
func (r *Resource) ActionKind(name string) meta.GroupVersionKind {
	if gvk, ok := r.ActionKinds[name]; ok {
		return gvk
	}
	kind := name
	if name != "" {
		kind = strings.ToUpper(name[:1]) + name[1:]
	}
	return meta.GroupVersionKind{Group: r.Group, Version: r.Version, Kind: kind}
}

// GroupVersionKind returns the served kind.
func (r *Resource) GroupVersionKind() meta.GroupVersionKind {
	return meta.GroupVersionKind{Group: r.Group, Version: r.Version, Kind: r.Kind}
}

// storageResource is the row whose version is persisted.
func (r *Resource) storageResource() *Resource {
	if r.Storage != nil {
		return r.Storage
	}
	return r
}

func (r *Resource) nameFunc() validation.NameFunc {
	if r.NameFunc != nil {
		return r.NameFunc
	}
	return validation.IsDNS1123Subdomain
}

// Strategy is what a resource adds to the generic store. Every method is
// called on an object of the resource's served kind.
type Strategy interface {
	// Default fills unset fields; it runs on every write.
	Default(obj meta.Object)
	// PrepareForCreate adjusts a new object before validation (for example a
	// pod's initial phase). Status has already been cleared.
	PrepareForCreate(obj meta.Object)
	// PrepareForUpdate adjusts obj, replacing old, before validation.
	PrepareForUpdate(obj, old meta.Object)
	// Validate checks a new object's type-specific fields. ctx is the
	// request's: validation that may run long (a custom resource's CEL
	// rules) stops when it is done.
	Validate(ctx context.Context, obj meta.Object) field.ErrorList
	// ValidateUpdate checks an update's type-specific fields and
	// immutability, within ctx as Validate.
	ValidateUpdate(ctx context.Context, obj, old meta.Object) field.ErrorList
}

// WriteChecker is implemented by strategies that decide a write by who
// makes it (RBAC's escalation prevention). It runs after validation, with
// the request's context, on create (also by PUT) and on updates of the
// main part; an error it returns (a Forbidden) is the request's answer.
type WriteChecker interface {
	CheckCreate(ctx context.Context, obj meta.Object) error
	CheckUpdate(ctx context.Context, obj, old meta.Object) error
}

// DeletePreparer is implemented by strategies that change an object when
// its deletion starts (a namespace turns Terminating).
type DeletePreparer interface {
	PrepareForDelete(obj meta.Object)
}

// GracefulDeleter is implemented by strategies whose objects are deleted
// after a grace period (pods): GracePeriod returns the seconds to wait given
// the requested ones (nil when unset); ok false means no grace applies.
type GracefulDeleter interface {
	GracePeriod(obj meta.Object, requested *int64) (seconds int64, ok bool)
}

// DeletionBlocker is implemented by strategies whose objects wait for more
// than metadata.finalizers before removal (a namespace's spec.finalizers).
type DeletionBlocker interface {
	DeletionBlocked(obj meta.Object) bool
}

// Typed adapts per-type functions to Strategy; any of them may be nil.
type Typed[T any] struct {
	DefaultFunc          func(obj *T)
	PrepareForCreateFunc func(obj *T)
	PrepareForUpdateFunc func(obj, old *T)
	ValidateFunc         func(obj *T) field.ErrorList
	ValidateUpdateFunc   func(obj, old *T) field.ErrorList
	PrepareForDeleteFunc func(obj *T)
	GracePeriodFunc      func(obj *T, requested *int64) int64
	DeletionBlockedFunc  func(obj *T) bool
	CheckCreateFunc      func(ctx context.Context, obj *T) error
	CheckUpdateFunc      func(ctx context.Context, obj, old *T) error
}

var _ Strategy = Typed[struct{}]{}

func (s Typed[T]) Default(obj meta.Object) {
	if s.DefaultFunc != nil {
		s.DefaultFunc(any(obj).(*T))
	}
}

func (s Typed[T]) PrepareForCreate(obj meta.Object) {
	if s.PrepareForCreateFunc != nil {
		s.PrepareForCreateFunc(any(obj).(*T))
	}
}

func (s Typed[T]) PrepareForUpdate(obj, old meta.Object) {
	if s.PrepareForUpdateFunc != nil {
		s.PrepareForUpdateFunc(any(obj).(*T), any(old).(*T))
	}
}

func (s Typed[T]) Validate(_ context.Context, obj meta.Object) field.ErrorList {
	if s.ValidateFunc == nil {
		return nil
	}
	return s.ValidateFunc(any(obj).(*T))
}

func (s Typed[T]) ValidateUpdate(_ context.Context, obj, old meta.Object) field.ErrorList {
	if s.ValidateUpdateFunc == nil {
		return nil
	}
	return s.ValidateUpdateFunc(any(obj).(*T), any(old).(*T))
}

// PrepareForDelete implements DeletePreparer.
func (s Typed[T]) PrepareForDelete(obj meta.Object) {
	if s.PrepareForDeleteFunc != nil {
		s.PrepareForDeleteFunc(any(obj).(*T))
	}
}

// GracePeriod implements GracefulDeleter.
func (s Typed[T]) GracePeriod(obj meta.Object, requested *int64) (int64, bool) {
	if s.GracePeriodFunc == nil {
		return 0, false
	}
	return s.GracePeriodFunc(any(obj).(*T), requested), true
}

// DeletionBlocked implements DeletionBlocker.
func (s Typed[T]) DeletionBlocked(obj meta.Object) bool {
	return s.DeletionBlockedFunc != nil && s.DeletionBlockedFunc(any(obj).(*T))
}

// CheckCreate implements WriteChecker.
func (s Typed[T]) CheckCreate(ctx context.Context, obj meta.Object) error {
	if s.CheckCreateFunc == nil {
		return nil
	}
	return s.CheckCreateFunc(ctx, any(obj).(*T))
}

// CheckUpdate implements WriteChecker.
func (s Typed[T]) CheckUpdate(ctx context.Context, obj, old meta.Object) error {
	if s.CheckUpdateFunc == nil {
		return nil
	}
	return s.CheckUpdateFunc(ctx, any(obj).(*T), any(old).(*T))
}

// Conversion moves an object between a served version and its storage
// version. The functions return new objects and leave their input alone;
// ctx bounds a conversion that calls out (a conversion webhook).
type Conversion struct {
	// ToStorage converts an object of the served kind to the storage kind.
	ToStorage func(ctx context.Context, obj meta.Object) (meta.Object, error)
	// FromStorage converts an object of the storage kind to the served kind.
	FromStorage func(ctx context.Context, stored meta.Object) (meta.Object, error)
	// FromStorageList, when set, converts the items of a list (or of a
	// list's chunk) at once, in their order; nil converts them one by one
	// with FromStorage.
	FromStorageList func(ctx context.Context, stored []meta.Object) ([]meta.Object, error)
	// ReadBack makes the answer to a write the stored object converted
	// back, as a read would return it, rather than the object written: a
	// conversion that may not round-trip (a webhook's) shows its effect.
	ReadBack bool
}

// ScaleAccessor reads and writes the replica count behind the scale subresource.
type ScaleAccessor struct {
	// Get returns the desired and observed replicas and the label selector in string form.
	Get func(obj meta.Object) (spec, status int32, selector string)
	// SetReplicas sets the desired replicas.
	SetReplicas func(obj meta.Object, replicas int32)
}

// TableColumns describes how a resource prints as a Table.
type TableColumns struct {
	// Columns are the column definitions (name, type, format, description, priority).
	Columns []meta.TableColumnDefinition
	// Row returns the cells of obj, one per column, as JSON-encodable values.
	Row func(obj meta.Object) []any
	// Conditions, when set, returns the row conditions of obj (a pod that
	// has finished is Completed); nil means none.
	Conditions func(obj meta.Object) []meta.TableRowCondition
}
