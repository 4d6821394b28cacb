package cel

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"

	"platform.io/platform/pkg/apiserver/crd/structural"
)

// kind is how a schema node's values look in CEL.
type kind int

const (
	kindDyn kind = iota
	kindObject
	kindMap
	kindList
	kindString
	kindBytes
	kindDuration
	kindTimestamp
	kindDate
	kindInt
	kindDouble
	kindBool
)

// Sizes used to bound the estimated size of a value that declares no
// maxLength, maxItems or maxProperties: at most a request's bytes, each
// element taking at least its minimum serialized size.
const (
	minStringSize   = 2  // ""
	minNumberSize   = 1  // 0
	minBoolSize     = 4  // true
	minDurationSize = 4  // "0s"
	minDateSize     = 12 // "2006-01-02"
	minDateTimeSize = 22 // "2006-01-02T15:04:05Z"
	minContainer    = 2  // {} or []
)

// node is a schema node as CEL sees it: its type, its children and the
// bounds the cost estimator uses. Object nodes are registered as CEL
// object types named by their schema path.
type node struct {
	schema *structural.Schema
	kind   kind
	typ    *types.Type
	name   string // the object type name, also the schema path

	// props holds the children of an object by JSON name, celNames maps
	// each property's CEL identifier to its JSON name.
	props    map[string]*node
	celNames map[string]string
	// elem is the items of a list, the values of a map, and the children
	// of a dyn node.
	elem *node

	listType string   // atomic, set or map
	mapKeys  []string // x-kubernetes-list-map-keys

	maxSize uint64 // bound on bytes of a string, items of a list, entries of a map
	minSize uint64 // minimum serialized size of a value

	rules []*rule
	// hasRules is set when n or a descendant has rules; ruleProps are the
	// properties whose subtrees have rules, in order.
	hasRules  bool
	ruleProps []string
}

// builder builds the node tree of one schema and the provider that
// knows its object types.
type builder struct {
	maxRequest uint64
	objects    map[string]*node
	dyn        *node
}

func newBuilder(maxRequest uint64) *builder {
	b := &builder{maxRequest: maxRequest, objects: map[string]*node{}}
	b.dyn = &node{kind: kindDyn, typ: types.DynType, maxSize: maxRequest, minSize: 1}
	b.dyn.elem = b.dyn
	return b
}

// build returns the node of s; resource is true at the root and at
// x-kubernetes-embedded-resource nodes, where apiVersion, kind and
// metadata.name/generateName are always accessible, as upstream.
func (b *builder) build(s *structural.Schema, name string, resource bool) *node {
	if s == nil {
		return b.dyn
	}
	if s.IntOrString {
		return &node{schema: s, kind: kindDyn, typ: types.DynType, maxSize: b.maxRequest, minSize: 1, elem: b.dyn}
	}
	n := &node{schema: s, name: name}
	switch s.Type {
	case "object":
		b.buildObject(n, s, name, resource)
	case "array":
		n.kind = kindList
		n.elem = b.build(s.Items, name+".@items", s.Items != nil && s.Items.EmbeddedResource)
		n.typ = types.NewListType(n.elem.typ)
		n.minSize = minContainer
		n.maxSize = b.bound(s.MaxItems, n.elem.minSize+1)
		n.listType = "atomic"
		if s.ListType != nil {
			n.listType = *s.ListType
		}
		n.mapKeys = s.ListMapKeys
	case "string":
		b.buildString(n, s)
	case "integer":
		n.kind, n.typ, n.minSize = kindInt, types.IntType, minNumberSize
	case "number":
		n.kind, n.typ, n.minSize = kindDouble, types.DoubleType, minNumberSize
	case "boolean":
		n.kind, n.typ, n.minSize = kindBool, types.BoolType, minBoolSize
	default:
		// Untyped: x-kubernetes-preserve-unknown-fields without a type.
		n.kind, n.typ, n.minSize, n.maxSize, n.elem = kindDyn, types.DynType, 1, b.maxRequest, b.dyn
		if resource {
			b.buildObject(n, s, name, resource)
		}
	}
	return n
}

func (b *builder) buildObject(n *node, s *structural.Schema, name string, resource bool) {
	if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		n.kind = kindMap
		n.elem = b.build(s.AdditionalProperties.Schema, name+".@values", s.AdditionalProperties.Schema.EmbeddedResource)
		n.typ = types.NewMapType(types.StringType, n.elem.typ)
		n.minSize = minContainer
		n.maxSize = b.bound(s.MaxProperties, n.elem.minSize+minStringSize+2)
		return
	}
	preserve := s.PreserveUnknownFields != nil && *s.PreserveUnknownFields
	if preserve && len(s.Properties) == 0 && !resource {
		// No declared fields to type: the value is dynamic.
		n.kind, n.typ, n.minSize, n.maxSize, n.elem = kindDyn, types.DynType, minContainer, b.maxRequest, b.dyn
		return
	}
	if _, taken := b.objects[name]; taken {
		// A property name with dots can repeat another node's path.
		name = fmt.Sprintf("%s#%d", name, len(b.objects))
		n.name = name
	}
	n.kind = kindObject
	n.typ = types.NewObjectType(name)
	n.props = map[string]*node{}
	n.celNames = map[string]string{}
	n.minSize = minContainer
	required := map[string]bool{}
	for _, r := range s.Required {
		required[r] = true
	}
	for _, prop := range slices.Sorted(maps.Keys(s.Properties)) {
		ps := s.Properties[prop]
		child := b.build(ps, name+"."+prop, ps != nil && ps.EmbeddedResource)
		n.props[prop] = child
		if id, ok := escape(prop); ok {
			n.celNames[id] = prop
		}
		if required[prop] && ps != nil && ps.Default == nil {
			n.minSize += uint64(len(prop)) + child.minSize + 4
		}
	}
	if resource {
		b.addResourceFields(n, name)
	}
	b.objects[name] = n
}

// addResourceFields declares apiVersion, kind and metadata's name and
// generateName where the schema does not.
func (b *builder) addResourceFields(n *node, name string) {
	str := func(max int64) *node {
		return b.build(&structural.Schema{Type: "string", MaxLength: &max}, "", false)
	}
	for _, f := range []string{"apiVersion", "kind"} {
		if _, ok := n.props[f]; !ok {
			n.props[f] = str(253)
			n.celNames[f] = f
		}
	}
	meta, ok := n.props["metadata"]
	if !ok || meta.kind != kindObject {
		meta = &node{kind: kindObject, name: name + ".metadata", typ: types.NewObjectType(name + ".metadata"),
			props: map[string]*node{}, celNames: map[string]string{}, minSize: minContainer}
		if ok {
			meta.schema = n.props["metadata"].schema
		}
		b.objects[meta.name] = meta
		n.props["metadata"] = meta
		n.celNames["metadata"] = "metadata"
	}
	for _, f := range []string{"name", "generateName"} {
		if _, ok := meta.props[f]; !ok {
			meta.props[f] = str(253)
			meta.celNames[f] = f
		}
	}
}

func (b *builder) buildString(n *node, s *structural.Schema) {
	n.kind, n.typ, n.minSize = kindString, types.StringType, minStringSize
	switch s.Format {
	case "byte":
		n.kind, n.typ = kindBytes, types.BytesType
		n.maxSize = b.bound(s.MaxLength, 0)
		return
	case "duration":
		n.kind, n.typ, n.minSize = kindDuration, types.DurationType, minDurationSize
		return
	case "date":
		n.kind, n.typ, n.minSize = kindDate, types.TimestampType, minDateSize
		return
	case "date-time":
		n.kind, n.typ, n.minSize = kindTimestamp, types.TimestampType, minDateTimeSize
		return
	}
	switch {
	case s.MaxLength != nil:
		// maxLength counts code points; a code point takes up to 4 bytes.
		n.maxSize = nonNegative(*s.MaxLength) * 4
	case len(s.Enum) > 0:
		for _, e := range s.Enum {
			if str, ok := e.(string); ok && uint64(len(str)) > n.maxSize {
				n.maxSize = uint64(len(str))
			}
		}
	default:
		n.maxSize = b.maxRequest - minStringSize
	}
}

// bound is the declared maximum, or the number of elements of the given
// minimum size a request can hold.
func (b *builder) bound(declared *int64, elemSize uint64) uint64 {
	if declared != nil {
		return nonNegative(*declared)
	}
	if elemSize == 0 {
		return b.maxRequest - minStringSize
	}
	return (b.maxRequest - minContainer) / elemSize
}

// child returns the node a cost path element leads to.
func (n *node) child(elem string) *node {
	switch {
	case n.kind == kindObject:
		if prop, ok := n.celNames[elem]; ok {
			return n.props[prop]
		}
		return nil
	case elem == "@keys":
		return &node{kind: kindString, typ: types.StringType, maxSize: n.maxSize}
	case elem == "@items" || elem == "@values" || n.kind == kindDyn:
		return n.elem
	}
	return nil
}

// provider resolves the object types of one schema on top of the
// environment's own provider.
type provider struct {
	types.Provider
	objects map[string]*node
}

func (p *provider) FindStructType(name string) (*types.Type, bool) {
	if n, ok := p.objects[name]; ok {
		return types.NewTypeTypeWithParam(n.typ), true
	}
	return p.Provider.FindStructType(name)
}

func (p *provider) FindStructFieldNames(name string) ([]string, bool) {
	n, ok := p.objects[name]
	if !ok {
		return p.Provider.FindStructFieldNames(name)
	}
	return slices.Sorted(maps.Keys(n.celNames)), true
}

func (p *provider) FindStructFieldType(name, field string) (*types.FieldType, bool) {
	n, ok := p.objects[name]
	if !ok {
		return p.Provider.FindStructFieldType(name, field)
	}
	prop, ok := n.celNames[field]
	if !ok {
		return nil, false
	}
	// No IsSet/GetFrom: selection goes through the value's Find, which
	// knows the child's schema.
	return &types.FieldType{Type: n.props[prop].typ}, true
}

func (p *provider) NewValue(name string, fields map[string]ref.Val) ref.Val {
	if _, ok := p.objects[name]; ok {
		return types.NewErr("cannot construct schema object type %s", name)
	}
	return p.Provider.NewValue(name, fields)
}

// celReserved are the CEL keywords a property may not be named as is.
var celReserved = map[string]bool{
	"true": true, "false": true, "null": true, "in": true, "as": true, "break": true,
	"const": true, "continue": true, "else": true, "for": true, "function": true, "if": true,
	"import": true, "let": true, "loop": true, "package": true, "namespace": true,
	"return": true, "var": true, "void": true, "while": true,
}

// escape maps a property name to the CEL identifier rules use for it, as
// upstream: keywords become __kw__, and "__", ".", "-", "/" become
// __underscores__, __dot__, __dash__, __slash__. Names that cannot be
// escaped are not accessible to rules.
func escape(name string) (string, bool) {
	if name == "" || (name[0] >= '0' && name[0] <= '9') {
		return "", false
	}
	if celReserved[name] {
		return "__" + name + "__", true
	}
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '_' && i+1 < len(name) && name[i+1] == '_':
			b.WriteString("__underscores__")
			i++
		case c == '.':
			b.WriteString("__dot__")
		case c == '-':
			b.WriteString("__dash__")
		case c == '/':
			b.WriteString("__slash__")
		case c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'):
			b.WriteByte(c)
		default:
			return "", false
		}
	}
	return b.String(), true
}

func nonNegative(v int64) uint64 {
	if v < 0 {
		return 0
	}
	return uint64(v)
}
