package openapi

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sync"

	autoscalingv1 "platform.io/client/api/autoscaling/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/crd/structural"
	"platform.io/platform/pkg/apiserver/registry"
)

// CustomVersion is one served version of a custom resource: its registry
// row and the structural schema of its objects.
type CustomVersion struct {
	Row    *registry.Resource
	Schema *structural.Schema
}

// customSet is what the custom resources add to the documents. Their
// definitions and paths are kept per definition (owner); the documents
// they appear in are rendered when first asked for after a change, and
// the built-in documents are never rebuilt: /openapi/v2 merges the
// owners' parts into the built-in document (merge.go), and each custom
// group version gets a v3 document of its own.
type customSet struct {
	// mu guards every field.
	mu sync.Mutex
	// owners are the served versions of each definition, by its name.
	owners map[string][]CustomVersion
	// v2 is each owner's swagger 2.0 part, a JSON document with paths
	// and definitions only.
	v2 map[string][]byte
	// gen counts the changes of owners.
	gen uint64
	// v3 are the rendered documents of custom group versions, by gvPath;
	// a change removes those of the group versions it touches.
	v3 map[string]*document
	// discovery is the /openapi/v3 index with the custom group versions,
	// nil until rendered after a change.
	discovery *document
}

var scaleDef = defName(reflect.TypeFor[autoscalingv1.Scale]())

// SetCustom publishes the served versions of the definition owner,
// replacing what it published before: /openapi/v2 and /openapi/v3 then
// describe them. A group version the built-in resources serve keeps its
// built-in v3 document.
func (s *Spec) SetCustom(owner string, versions []CustomVersion) error {
	defs, paths := s.customParts(versions, true)
	v2, err := json.Marshal(v2Part(defs, paths))
	if err != nil {
		return fmt.Errorf("openapi v2 of %s: %w", owner, err)
	}
	c := &s.custom
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.owners == nil {
		c.owners, c.v2, c.v3 = map[string][]CustomVersion{}, map[string][]byte{}, map[string]*document{}
	}
	c.invalidateLocked(owner)
	c.owners[owner] = versions
	c.v2[owner] = v2
	c.invalidateLocked(owner)
	return nil
}

// RemoveCustom withdraws what the definition owner published.
func (s *Spec) RemoveCustom(owner string) {
	c := &s.custom
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.owners[owner]; !ok {
		return
	}
	c.invalidateLocked(owner)
	delete(c.owners, owner)
	delete(c.v2, owner)
}

// invalidateLocked drops the rendered documents owner's versions appear in.
func (c *customSet) invalidateLocked(owner string) {
	for _, v := range c.owners[owner] {
		delete(c.v3, gvPath(v.Row.GroupVersion()))
	}
	c.discovery = nil
	c.gen++
}

// v2Parts returns the owners' swagger 2.0 parts, by owner name, and the
// generation they are of.
func (c *customSet) v2Parts() (uint64, [][]byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([][]byte, 0, len(c.v2))
	for _, owner := range slices.Sorted(maps.Keys(c.v2)) {
		out = append(out, c.v2[owner])
	}
	return c.gen, out
}

// customV3 returns the v3 document of the custom group version key, nil
// when no custom resource is served there.
func (s *Spec) customV3(key string) (*document, error) {
	c := &s.custom
	c.mu.Lock()
	defer c.mu.Unlock()
	return s.customV3Locked(key)
}

func (s *Spec) customV3Locked(key string) (*document, error) {
	c := &s.custom
	if doc := c.v3[key]; doc != nil {
		return doc, nil
	}
	var versions []CustomVersion
	for _, owner := range slices.Sorted(maps.Keys(c.owners)) {
		for _, v := range c.owners[owner] {
			if gvPath(v.Row.GroupVersion()) == key {
				versions = append(versions, v)
			}
		}
	}
	if len(versions) == 0 {
		return nil, nil
	}
	defs, paths := s.customParts(versions, false)
	view := &definitions{defs: maps.Clone(s.defs.defs)}
	maps.Copy(view.defs, defs)
	doc, err := newDocument(v3Document(view, s.info, paths), v3Proto)
	if err != nil {
		return nil, fmt.Errorf("openapi v3 %s: %w", key, err)
	}
	c.v3[key] = doc
	return doc, nil
}

// index returns the /openapi/v3 index: the built-in group versions and,
// rendering them if need be, the custom ones.
func (s *Spec) index() (*document, error) {
	c := &s.custom
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.owners) == 0 {
		return s.discovery, nil
	}
	if c.discovery != nil {
		return c.discovery, nil
	}
	custom := map[string]*document{}
	for _, versions := range c.owners {
		for _, v := range versions {
			key := gvPath(v.Row.GroupVersion())
			if _, done := custom[key]; done || s.v3[key] != nil {
				continue
			}
			doc, err := s.customV3Locked(key)
			if err != nil {
				return nil, err
			}
			custom[key] = doc
		}
	}
	doc, err := newDocument(discoveryDocument(s.v3, custom), nil)
	if err != nil {
		return nil, err
	}
	c.discovery = doc
	return doc, nil
}

// customParts are the definitions and paths of versions: each kind and
// its list, named as upstream names them, and the same paths as a
// built-in resource's, with the group versions' resource lists.
func (s *Spec) customParts(versions []CustomVersion, v2 bool) (map[string]*schema, map[string]*pathItem) {
	defs := map[string]*schema{}
	paths := map[string]*pathItem{}
	for _, v := range versions {
		r, gv := v.Row, v.Row.GroupVersion()
		kind := customDefName(gv, r.Kind)
		k := &schema{Type: "object", Ext: map[string]any{extPreserve: true}}
		if v.Schema != nil {
			k = customSchema(v.Schema, v2)
		}
		k.setExt(extGVK, []any{gvkExt(r.GroupVersionKind())})
		defs[kind] = k
		list := customDefName(gv, r.ListKindName())
		l := listSchema(kind, r.Kind, "")
		l.setExt(extGVK, []any{gvkExt(meta.GroupVersionKind{Group: gv.Group, Version: gv.Version, Kind: r.ListKindName()})})
		defs[list] = l
		p := &resourcePaths{r: r, gv: gv, kind: kind, list: list, scale: scaleDef, actions: map[string]string{}, out: paths}
		p.build()
		discoveryPath(gv, paths)
	}
	return defs, paths
}

func gvkExt(g meta.GroupVersionKind) map[string]any {
	return map[string]any{"group": g.Group, "version": g.Version, "kind": g.Kind}
}

// v2Part renders definitions and paths as the parts of a swagger 2.0
// document that the merge adds to the built-in one.
func v2Part(defs map[string]*schema, paths map[string]*pathItem) map[string]any {
	ds := map[string]any{}
	for name, d := range defs {
		ds[name] = d.v2()
	}
	ps := map[string]any{}
	for path, item := range paths {
		ps[path] = item.v2()
	}
	return map[string]any{"paths": ps, "definitions": ds}
}
