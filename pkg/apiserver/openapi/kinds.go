package openapi

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	authnv1 "platform.io/client/api/authentication/v1"
	autoscalingv1 "platform.io/client/api/autoscaling/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
)

// actionBodies are the body types of action subresources, by
// "resource/subresource". An action missing here gets an open object schema.
var actionBodies = map[string]reflect.Type{
	"pods/binding":          reflect.TypeFor[corev1.Binding](),
	"serviceaccounts/token": reflect.TypeFor[authnv1.TokenRequest](),
}

var metaPrefix = strings.TrimSuffix(defName(reflect.TypeFor[meta.Status]()), "Status")

// metaDef names a definition of the meta.platform.io/v1 kinds.
func metaDef(name string) string { return metaPrefix + name }

// Descriptions of the fields every kind has, used where the Go field has no doc.
var commonFieldDocs = map[string]string{
	"apiVersion": "APIVersion is the versioned schema of this object: group/version, or just the version for the core group. Servers convert recognized schemas to the latest internal value and may reject unrecognized values.",
	"kind":       "Kind is the REST resource this object represents, in CamelCase. Servers may infer it from the endpoint the client submits requests to; it cannot be updated.",
	"metadata":   "Standard object metadata.",
	"spec":       "Spec is the desired state of the object.",
	"status":     "Status is the most recently observed state of the object; it is read-only to clients and written through the status subresource.",
}

// addGVK records that definition name is served as gvk.
func (d *definitions) addGVK(name string, gvk meta.GroupVersionKind) {
	for _, g := range d.gvks[name] {
		if g == gvk {
			return
		}
	}
	d.gvks[name] = append(d.gvks[name], gvk)
}

// finish writes the x-kubernetes-group-version-kind lists, sorted, and
// fills the descriptions of common fields that have none.
func (d *definitions) finish() {
	for name, list := range d.gvks {
		sort.Slice(list, func(i, j int) bool {
			a, b := list[i], list[j]
			if a.Group != b.Group {
				return a.Group < b.Group
			}
			if a.Version != b.Version {
				return a.Version < b.Version
			}
			return a.Kind < b.Kind
		})
		var ext []any
		for _, g := range list {
			ext = append(ext, map[string]any{"group": g.Group, "version": g.Version, "kind": g.Kind})
		}
		s := d.defs[name]
		s.setExt(extGVK, ext)
		for field, doc := range commonFieldDocs {
			if p := s.Properties[field]; p != nil && p.Description == "" {
				p.Description = doc
			}
		}
	}
}

// defineKind defines the served kind of row r and its list, returning both names.
func (d *definitions) defineKind(r *registry.Resource) (kind, list string, err error) {
	t := reflect.TypeOf(r.New())
	if t == nil || t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct {
		return "", "", fmt.Errorf("openapi: %s: New returns %v, not a pointer to a struct", r.GroupResource(), t)
	}
	t = t.Elem()
	if kind, err = d.define(t); err != nil {
		return "", "", err
	}
	d.addGVK(kind, r.GroupVersionKind())
	list = d.defineList(t, r.Kind)
	d.addGVK(list, meta.GroupVersionKind{Group: r.Group, Version: r.Version, Kind: r.ListKindName()})
	return kind, list, nil
}

// defineList defines the list of kind t, which the server returns from list
// calls: apiVersion, kind, list metadata and the items.
func (d *definitions) defineList(t reflect.Type, kind string) string {
	kindDef := defName(t)
	name := kindDef + "List"
	if _, ok := d.defs[name]; !ok {
		d.defs[name] = listSchema(kindDef, kind, docs[docKey(t)+"List"])
	}
	return name
}

// listSchema is the schema of the list of kind, whose definition is
// kindDef; desc "" is a generic description.
func listSchema(kindDef, kind, desc string) *schema {
	if desc == "" {
		desc = kind + "List is a list of " + kind + " objects."
	}
	return &schema{
		Type: "object", Description: desc, Required: []string{"items"},
		Properties: map[string]*schema{
			"apiVersion": {Type: "string", Description: commonFieldDocs["apiVersion"]},
			"kind":       {Type: "string", Description: commonFieldDocs["kind"]},
			"metadata":   {Ref: metaDef("ListMeta"), Description: "Standard list metadata."},
			"items":      {Type: "array", Items: &schema{Ref: kindDef}, Description: "Items are the " + kind + " objects of the list."},
		},
	}
}

// defineMeta defines the meta.platform.io/v1 kinds every document uses and
// gives them the kinds upstream lists: Status in v1, DeleteOptions and
// WatchEvent in every served group version.
func (d *definitions) defineMeta(gvs []meta.GroupVersion) error {
	for _, t := range []reflect.Type{
		reflect.TypeFor[meta.Status](), reflect.TypeFor[meta.DeleteOptions](),
		reflect.TypeFor[meta.WatchEvent](), reflect.TypeFor[meta.ListMeta](),
		reflect.TypeFor[meta.APIResourceList](),
	} {
		if _, err := d.define(t); err != nil {
			return err
		}
	}
	d.defs[metaDef("Patch")] = &schema{Type: "object",
		Description: "Patch is the body of a PATCH request; its form is given by the request's Content-Type: a JSON patch, a JSON merge patch or a strategic merge patch."}
	d.addGVK(metaDef("Status"), meta.GroupVersionKind{Version: "v1", Kind: "Status"})
	all := append([]meta.GroupVersion{{Version: "v1"}}, gvs...)
	for _, gv := range all {
		for _, kind := range []string{"DeleteOptions", "WatchEvent"} {
			d.addGVK(metaDef(kind), meta.GroupVersionKind{Group: gv.Group, Version: gv.Version, Kind: kind})
		}
	}
	return nil
}

// defineScale defines autoscaling/v1 Scale, the body of scale subresources.
func (d *definitions) defineScale() (string, error) {
	name, err := d.define(reflect.TypeFor[autoscalingv1.Scale]())
	if err == nil {
		d.addGVK(name, meta.GroupVersionKind{Group: "autoscaling", Version: "v1", Kind: "Scale"})
	}
	return name, err
}

// defineAction defines the body of action subresource name of row r.
func (d *definitions) defineAction(r *registry.Resource, kindDef, name string) (string, error) {
	gvk := r.ActionKind(name)
	var def string
	if t, ok := actionBodies[r.Name+"/"+name]; ok {
		var err error
		if def, err = d.define(t); err != nil {
			return "", err
		}
	} else {
		def = kindDef[:strings.LastIndex(kindDef, ".")+1] + gvk.Kind
		if _, ok := d.defs[def]; !ok {
			d.defs[def] = &schema{Type: "object", Description: gvk.Kind + " is the body of the " + name + " subresource.",
				Ext: map[string]any{extPreserve: true}}
		}
	}
	d.addGVK(def, gvk)
	return def, nil
}

// closure returns roots and every definition they reach.
func (d *definitions) closure(roots []string) map[string]bool {
	seen := map[string]bool{}
	var visit func(string)
	visit = func(name string) {
		if seen[name] {
			return
		}
		seen[name] = true
		d.defs[name].refs(visit)
	}
	for _, r := range roots {
		visit(r)
	}
	return seen
}
