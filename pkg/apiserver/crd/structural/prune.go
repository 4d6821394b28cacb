package structural

import (
	"sort"
	"strconv"
	"strings"
)

// Prune removes from obj, in place, the fields the schema does not
// specify, and returns their paths sorted ("spec.foo",
// "spec.containers[0].bar"), as upstream words them in a Strict
// request's "unknown field" errors and a Warn request's warnings.
//
// A node with x-kubernetes-preserve-unknown-fields keeps unknown fields
// (its specified fields are still pruned below it); additionalProperties
// keeps every key (pruning below by its schema; additionalProperties: true
// keeps the values whole); an embedded resource keeps apiVersion, kind and
// metadata, but not metadata fields ObjectMeta lacks. With root, obj is a
// whole resource and is treated the same way.
func (s *Schema) Prune(obj map[string]any, root bool) []string {
	p := pruning{}
	node := s
	if root && (s == nil || !s.EmbeddedResource) {
		c := Schema{EmbeddedResource: true}
		if s != nil {
			c = *s
			c.EmbeddedResource = true
		}
		node = &c
	}
	node.prune(&p, obj)
	sort.Strings(p.removed)
	return p.removed
}

// pruning tracks the path being walked and the removed fields.
type pruning struct {
	path    []string
	removed []string
}

func (p *pruning) pushKey(k string) {
	if len(p.path) > 0 {
		p.path = append(p.path, ".")
	}
	p.path = append(p.path, k)
}

func (p *pruning) record(k string) {
	n := len(p.path)
	p.pushKey(k)
	p.removed = append(p.removed, strings.Join(p.path, ""))
	p.path = p.path[:n]
}

// prune walks x by s; a nil s specifies nothing, so every field of an
// object below it is removed.
func (s *Schema) prune(p *pruning, x any) {
	if s != nil && s.PreserveUnknownFields != nil && *s.PreserveUnknownFields {
		s.skipPrune(p, x)
		return
	}
	n := len(p.path)
	switch x := x.(type) {
	case map[string]any:
		for k, v := range x {
			if s != nil && s.EmbeddedResource && metaFields[k] {
				if k == "metadata" {
					p.pruneMeta(v)
				}
				continue
			}
			if sub, keep := s.fieldSchema(k); keep {
				p.pushKey(k)
				sub.prune(p, v)
				p.path = p.path[:n]
				continue
			}
			if !metaFields[k] || len(p.path) > 0 {
				p.record(k)
			}
			delete(x, k)
		}
	case []any:
		var items *Schema
		if s != nil {
			items = s.Items
		}
		for i, v := range x {
			p.path = append(p.path, "[", strconv.Itoa(i), "]")
			items.prune(p, v)
			p.path = p.path[:n]
		}
	}
}

// fieldSchema returns the schema of the field k of an object of s, and
// whether s keeps the field at all. additionalProperties: true keeps the
// field and everything in it: its schema is one that preserves.
func (s *Schema) fieldSchema(k string) (*Schema, bool) {
	if s == nil {
		return nil, false
	}
	if sub, ok := s.Properties[k]; ok {
		return sub, true
	}
	ap := s.AdditionalProperties
	switch {
	case ap == nil || !ap.Allows:
		return nil, false
	case ap.Schema != nil:
		return ap.Schema, true
	}
	return preserveAll, true
}

var preserveAll = &Schema{PreserveUnknownFields: func() *bool { b := true; return &b }()}

// skipPrune keeps x's unknown fields but prunes inside its specified ones.
func (s *Schema) skipPrune(p *pruning, x any) {
	n := len(p.path)
	switch x := x.(type) {
	case map[string]any:
		for k, v := range x {
			if s.EmbeddedResource && metaFields[k] {
				if k == "metadata" {
					p.pruneMeta(v)
				}
				continue
			}
			if sub, ok := s.fieldSchema(k); ok && sub != nil {
				p.pushKey(k)
				sub.prune(p, v)
				p.path = p.path[:n]
			}
		}
	case []any:
		if s.Items == nil {
			return
		}
		for i, v := range x {
			p.path = append(p.path, "[", strconv.Itoa(i), "]")
			s.Items.skipPrune(p, v)
			p.path = p.path[:n]
		}
	}
}

// objectMetaFields are the JSON names of ObjectMeta's fields.
var objectMetaFields = map[string]bool{
	"name": true, "generateName": true, "namespace": true, "selfLink": true, "uid": true,
	"resourceVersion": true, "generation": true, "creationTimestamp": true, "deletionTimestamp": true,
	"deletionGracePeriodSeconds": true, "labels": true, "annotations": true, "ownerReferences": true,
	"finalizers": true, "managedFields": true,
}

// pruneMeta removes the fields of a resource's metadata that ObjectMeta
// does not have, as upstream's typed round trip of metadata drops them
// (and reports them as unknown). Fields inside ObjectMeta's own fields
// are left to the metadata's decoding.
func (p *pruning) pruneMeta(v any) {
	m, ok := v.(map[string]any)
	if !ok {
		return
	}
	n := len(p.path)
	p.pushKey("metadata")
	for k := range m {
		if !objectMetaFields[k] {
			p.record(k)
			delete(m, k)
		}
	}
	p.path = p.path[:n]
}
