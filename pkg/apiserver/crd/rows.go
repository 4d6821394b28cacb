package crd

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"

	apiextv1 "platform.io/client/api/apiextensions/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/crd/applyschema"
	"platform.io/platform/pkg/apiserver/crd/conversion"
	"platform.io/platform/pkg/apiserver/crd/instance"
	"platform.io/platform/pkg/apiserver/registry"
)

// Rows are the registry rows of one definition.
type Rows struct {
	// Served are the rows of the served versions, the preferred first.
	Served []*registry.Resource
	// Storage is the row of the storage version (served or not), which
	// every served row is stored as.
	Storage *registry.Resource
	// Terminating, once set, refuses creates: the definition is being
	// deleted with its objects.
	Terminating *atomic.Bool
}

// BuildRows returns the rows of crd under its accepted names, each with
// the server-side apply type of its version's schema when apply is set.
// It fails when a version's schema does not load (validation refuses
// such definitions, so only data written around it can). Under the
// Webhook conversion strategy the rows of the versions other than the
// storage version convert through the definition's webhook, called by
// hooks.
func BuildRows(crd *apiextv1.CustomResourceDefinition, apply *applyschema.Shared, hooks *conversion.Caller) (*Rows, error) {
	out := &Rows{Terminating: new(atomic.Bool)}
	var names []string
	var storageRules schemaRules
	versions := map[string]*apiextv1.CustomResourceDefinitionVersion{}
	for i := range crd.Spec.Versions {
		v := &crd.Spec.Versions[i]
		versions[v.Name] = v
		if v.Storage {
			r, rules, err := row(crd, v, out.Terminating, apply)
			if err != nil {
				return nil, err
			}
			out.Storage, storageRules = r, rules
		}
		if v.Served {
			names = append(names, v.Name)
		}
	}
	if out.Storage == nil {
		return out, nil
	}
	sortVersions(names)
	var hook *conversion.Webhook
	if crd.Spec.Conversion != nil && crd.Spec.Conversion.Strategy == apiextv1.WebhookConverter {
		if hooks == nil {
			return nil, errors.New("no caller of conversion webhooks is configured")
		}
		var err error
		if hook, err = hooks.For(crd); err != nil {
			return nil, err
		}
	}
	for _, name := range names {
		r := out.Storage
		if name != out.Storage.Version {
			var rules schemaRules
			var err error
			if r, rules, err = row(crd, versions[name], out.Terminating, apply); err != nil {
				return nil, err
			}
			r.Storage = out.Storage
			if hook != nil {
				r.Convert = webhookConversion(hook, side{r, rules}, side{out.Storage, storageRules})
			}
		}
		r.Warning = deprecation(crd, versions[name], names, versions)
		out.Served = append(out.Served, r)
	}
	return out, nil
}

// deprecation is the warning of a deprecated version: its own, or
// upstream's default naming the preferred version that is not deprecated.
func deprecation(crd *apiextv1.CustomResourceDefinition, v *apiextv1.CustomResourceDefinitionVersion, served []string, versions map[string]*apiextv1.CustomResourceDefinitionVersion) string {
	if !v.Deprecated {
		return ""
	}
	if v.DeprecationWarning != nil {
		return *v.DeprecationWarning
	}
	kind := crd.Status.AcceptedNames.Kind
	msg := fmt.Sprintf("%s/%s %s is deprecated", crd.Spec.Group, v.Name, kind)
	for _, name := range served {
		if !versions[name].Deprecated {
			return msg + fmt.Sprintf("; use %s/%s %s", crd.Spec.Group, name, kind)
		}
	}
	return msg
}

// row is the registry row of version v of crd, and its schema's rules.
func row(crd *apiextv1.CustomResourceDefinition, v *apiextv1.CustomResourceDefinitionVersion, terminating *atomic.Bool, apply *applyschema.Shared) (*registry.Resource, schemaRules, error) {
	s, err := loadSchema(v)
	if err != nil {
		return nil, schemaRules{}, err
	}
	rules, err := newSchemaRules(s)
	if err != nil {
		return nil, schemaRules{}, fmt.Errorf("version %s: %w", v.Name, err)
	}
	names := crd.Status.AcceptedNames
	split := v.Subresources != nil && v.Subresources.Status != nil
	r := &registry.Resource{
		Group: crd.Spec.Group, Version: v.Name, Name: names.Plural, Singular: names.Singular,
		Kind: names.Kind, ListKind: names.ListKind, ShortNames: names.ShortNames, Categories: names.Categories,
		Namespaced: crd.Spec.Scope == apiextv1.NamespaceScoped,
		Custom:     true,
		New:        func() meta.Object { return &instance.Object{SplitStatus: split} },
		HasStatus:  split,
		Table:      tableColumns(v),
		Prune:      rules.prune,
		// Defaults apply on read too, as upstream: a default added to the
		// schema shows in objects stored before it.
		DefaultOnRead: true,
	}
	gr := r.GroupResource()
	r.Strategy = strategy{rules: rules, Typed: registry.Typed[instance.Object]{
		DefaultFunc: rules.normalize,
		CheckCreateFunc: func(_ context.Context, _ *instance.Object) error {
			if terminating.Load() {
				return apierrors.NewMethodNotSupported(gr, "create (the CustomResourceDefinition is being deleted)")
			}
			return nil
		},
	}}
	if apply != nil {
		pt, err := applyschema.Build(fmt.Sprintf("%s.%s.%s", r.Group, r.Version, r.Kind), s, apply)
		if err != nil {
			return nil, schemaRules{}, fmt.Errorf("version %s: server-side apply type: %w", v.Name, err)
		}
		r.ApplyType = &pt
	}
	if len(v.SelectableFields) > 0 {
		paths := make(map[string][]string, len(v.SelectableFields))
		for _, f := range v.SelectableFields {
			paths[strings.TrimPrefix(f.JSONPath, ".")] = splitPath(f.JSONPath)
		}
		r.SelectableFields = func(obj meta.Object) map[string]string {
			o := obj.(*instance.Object)
			out := make(map[string]string, len(paths))
			for name, p := range paths {
				v, _ := o.Field(p)
				out[name] = selectorValue(v)
			}
			return out
		}
	}
	if v.Subresources != nil && v.Subresources.Scale != nil {
		r.Scale = scaleAccessor(v.Subresources.Scale)
	}
	return r, rules, nil
}

// splitPath turns ".spec.replicas" into [spec replicas].
func splitPath(p string) []string {
	return strings.Split(strings.TrimPrefix(p, "."), ".")
}

// selectorValue is the field selector form of a value: strings as they
// are, booleans and integers in decimal, anything else (absent) empty.
func selectorValue(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case bool:
		return strconv.FormatBool(v)
	case int64:
		return strconv.FormatInt(v, 10)
	}
	return ""
}

// scaleAccessor serves /scale from the paths the version declares.
func scaleAccessor(s *apiextv1.CustomResourceSubresourceScale) *registry.ScaleAccessor {
	spec, status := splitPath(s.SpecReplicasPath), splitPath(s.StatusReplicasPath)
	var selector []string
	if s.LabelSelectorPath != nil {
		selector = splitPath(*s.LabelSelectorPath)
	}
	return &registry.ScaleAccessor{
		Get: func(obj meta.Object) (int32, int32, string) {
			o := obj.(*instance.Object)
			specV, _ := o.Field(spec)
			statusV, _ := o.Field(status)
			var sel string
			if selector != nil {
				v, _ := o.Field(selector)
				sel, _ = v.(string)
			}
			return replicas(specV), replicas(statusV), sel
		},
		SetReplicas: func(obj meta.Object, n int32) {
			obj.(*instance.Object).SetField(spec, int64(n))
		},
	}
}

func replicas(v any) int32 {
	if n, ok := v.(int64); ok {
		return int32(n)
	}
	return 0
}
