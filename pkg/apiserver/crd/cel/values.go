package cel

import (
	"encoding/base64"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"time"

	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/common/types/traits"
)

// toVal wraps a JSON tree value as the CEL value of node n. Objects,
// maps and lists are wrapped lazily: a child is converted when a rule
// reads it.
func toVal(v any, n *node) ref.Val {
	if v == nil {
		return types.NullValue
	}
	switch n.kind {
	case kindObject, kindMap:
		if m, ok := v.(map[string]any); ok {
			return &objectVal{m: m, n: n}
		}
	case kindList:
		if l, ok := v.([]any); ok {
			return &listVal{l: l, n: n}
		}
	case kindString:
		if s, ok := v.(string); ok {
			return types.String(s)
		}
	case kindBytes:
		if s, ok := v.(string); ok {
			b, err := base64.StdEncoding.DecodeString(s)
			if err != nil {
				return types.NewErr("invalid base64 value %q: %v", s, err)
			}
			return types.Bytes(b)
		}
	case kindDuration:
		if s, ok := v.(string); ok {
			d, err := time.ParseDuration(s)
			if err != nil {
				return types.NewErr("invalid duration %q: %v", s, err)
			}
			return types.Duration{Duration: d}
		}
	case kindDate, kindTimestamp:
		if s, ok := v.(string); ok {
			layout := time.RFC3339Nano
			if n.kind == kindDate {
				layout = time.DateOnly
			}
			t, err := time.Parse(layout, s)
			if err != nil {
				return types.NewErr("invalid %s %q: %v", n.schema.Format, s, err)
			}
			return types.Timestamp{Time: t}
		}
	case kindInt:
		switch x := v.(type) {
		case int64:
			return types.Int(x)
		case float64:
			if x == float64(int64(x)) {
				return types.Int(int64(x))
			}
		}
	case kindDouble:
		switch x := v.(type) {
		case float64:
			return types.Double(x)
		case int64:
			return types.Double(float64(x))
		}
	case kindBool:
		if b, ok := v.(bool); ok {
			return types.Bool(b)
		}
	case kindDyn:
		return dynVal(v, n)
	}
	return types.NewErr("value of type %T does not match its schema", v)
}

// dynVal converts a value whose schema does not type it.
func dynVal(v any, n *node) ref.Val {
	switch x := v.(type) {
	case map[string]any:
		return &objectVal{m: x, n: n}
	case []any:
		return &listVal{l: x, n: n}
	case string:
		return types.String(x)
	case int64:
		return types.Int(x)
	case float64:
		return types.Double(x)
	case bool:
		return types.Bool(x)
	}
	return types.NewErr("unsupported value of type %T", v)
}

// objectVal is an object (its fields typed by properties), a map (its
// values typed by additionalProperties) or a dyn map. Null fields read as
// absent.
type objectVal struct {
	m map[string]any
	n *node
}

var _ traits.Mapper = (*objectVal)(nil)

func (o *objectVal) lookup(key ref.Val) (any, *node, bool) {
	k, ok := key.(types.String)
	if !ok {
		return nil, nil, false
	}
	name, child := string(k), o.n.elem
	if o.n.kind == kindObject {
		prop, ok := o.n.celNames[name]
		if !ok {
			return nil, nil, false
		}
		name, child = prop, o.n.props[prop]
	}
	v, ok := o.m[name]
	if !ok || v == nil {
		return nil, nil, false
	}
	return v, child, true
}

func (o *objectVal) Find(key ref.Val) (ref.Val, bool) {
	v, child, ok := o.lookup(key)
	if !ok {
		return nil, false
	}
	return toVal(v, child), true
}

func (o *objectVal) Get(key ref.Val) ref.Val {
	if v, ok := o.Find(key); ok {
		return v
	}
	return types.NewErr("no such key: %v", key)
}

func (o *objectVal) Contains(key ref.Val) ref.Val {
	_, _, ok := o.lookup(key)
	return types.Bool(ok)
}

func (o *objectVal) IsSet(key ref.Val) ref.Val { return o.Contains(key) }

func (o *objectVal) Size() ref.Val {
	n := 0
	for _, v := range o.m {
		if v != nil {
			n++
		}
	}
	return types.Int(n)
}

func (o *objectVal) keys() []string {
	keys := make([]string, 0, len(o.m))
	for _, k := range slices.Sorted(maps.Keys(o.m)) {
		if o.m[k] == nil {
			continue
		}
		if o.n.kind == kindObject {
			id, ok := escape(k)
			if !ok {
				continue
			}
			k = id
		}
		keys = append(keys, k)
	}
	return keys
}

func (o *objectVal) Iterator() traits.Iterator {
	return &keyIterator{keys: o.keys()}
}

func (o *objectVal) Equal(other ref.Val) ref.Val {
	m, ok := other.(traits.Mapper)
	if !ok || m.Size() != o.Size() {
		return types.False
	}
	for _, k := range o.keys() {
		ov, found := m.Find(types.String(k))
		if !found {
			return types.False
		}
		mine, _ := o.Find(types.String(k))
		if eq := mine.Equal(ov); eq != types.True {
			return eq
		}
	}
	return types.True
}

func (o *objectVal) ConvertToNative(t reflect.Type) (any, error) {
	if reflect.TypeOf(o.m).AssignableTo(t) {
		return o.m, nil
	}
	return nil, fmt.Errorf("cel: cannot convert an object to %v", t)
}

func (o *objectVal) ConvertToType(t ref.Type) ref.Val {
	switch {
	case t == types.TypeType:
		return o.n.typ
	case t.TypeName() == o.Type().TypeName():
		return o
	}
	return types.NewErr("type conversion error from %s to %s", o.Type().TypeName(), t.TypeName())
}

func (o *objectVal) Type() ref.Type {
	if o.n.kind == kindObject {
		return o.n.typ
	}
	return types.MapType
}

func (o *objectVal) Value() any { return o.m }

type keyIterator struct {
	keys []string
	i    int
}

func (it *keyIterator) HasNext() ref.Val { return types.Bool(it.i < len(it.keys)) }

func (it *keyIterator) Next() ref.Val {
	if it.i >= len(it.keys) {
		return nil
	}
	it.i++
	return types.String(it.keys[it.i-1])
}

func (it *keyIterator) ConvertToNative(reflect.Type) (any, error) {
	return nil, fmt.Errorf("cel: an iterator has no native form")
}
func (it *keyIterator) ConvertToType(ref.Type) ref.Val { return types.NewErr("iterator") }
func (it *keyIterator) Equal(ref.Val) ref.Val          { return types.False }
func (it *keyIterator) Type() ref.Type                 { return types.IteratorType }
func (it *keyIterator) Value() any                     { return it.keys }

// listVal is a list whose items are typed by the node's items schema.
// Lists of type set and map compare without regard to order, as upstream.
type listVal struct {
	l []any
	n *node
}

var _ traits.Lister = (*listVal)(nil)

func (l *listVal) item(i int) ref.Val { return toVal(l.l[i], l.n.elem) }

func (l *listVal) Get(index ref.Val) ref.Val {
	i, ok := index.(types.Int)
	if !ok {
		if d, isDouble := index.(types.Double); isDouble && float64(d) == float64(int64(d)) {
			i, ok = types.Int(d), true
		}
	}
	if !ok {
		return types.NewErr("unsupported index type %s in list", index.Type().TypeName())
	}
	if i < 0 || int(i) >= len(l.l) {
		return types.NewErr("index out of range: %d", i)
	}
	return l.item(int(i))
}

func (l *listVal) Size() ref.Val { return types.Int(len(l.l)) }

func (l *listVal) Contains(v ref.Val) ref.Val {
	for i := range l.l {
		if l.item(i).Equal(v) == types.True {
			return types.True
		}
	}
	return types.False
}

func (l *listVal) Iterator() traits.Iterator { return &listIterator{l: l} }

func (l *listVal) Add(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok {
		return types.NewErr("no such overload: list + %s", other.Type().TypeName())
	}
	out := make([]ref.Val, 0, len(l.l))
	for i := range l.l {
		out = append(out, l.item(i))
	}
	for it := o.Iterator(); it.HasNext() == types.True; {
		out = append(out, it.Next())
	}
	return types.NewRefValList(types.DefaultTypeAdapter, out)
}

func (l *listVal) Equal(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok || o.Size() != l.Size() {
		return types.False
	}
	unordered := l.n.listType == "set" || l.n.listType == "map"
	for i := range l.l {
		var eq ref.Val
		if unordered {
			eq = o.Contains(l.item(i))
		} else {
			eq = l.item(i).Equal(o.Get(types.Int(i)))
		}
		if eq != types.True {
			return eq
		}
	}
	return types.True
}

func (l *listVal) ConvertToNative(t reflect.Type) (any, error) {
	if reflect.TypeOf(l.l).AssignableTo(t) {
		return l.l, nil
	}
	return nil, fmt.Errorf("cel: cannot convert a list to %v", t)
}

func (l *listVal) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case types.TypeType:
		return types.ListType
	case types.ListType:
		return l
	}
	return types.NewErr("type conversion error from list to %s", t.TypeName())
}

func (l *listVal) Type() ref.Type { return types.ListType }
func (l *listVal) Value() any     { return l.l }

type listIterator struct {
	l *listVal
	i int
}

func (it *listIterator) HasNext() ref.Val { return types.Bool(it.i < len(it.l.l)) }

func (it *listIterator) Next() ref.Val {
	if it.i >= len(it.l.l) {
		return nil
	}
	it.i++
	return it.l.item(it.i - 1)
}

func (it *listIterator) ConvertToNative(reflect.Type) (any, error) {
	return nil, fmt.Errorf("cel: an iterator has no native form")
}
func (it *listIterator) ConvertToType(ref.Type) ref.Val { return types.NewErr("iterator") }
func (it *listIterator) Equal(ref.Val) ref.Val          { return types.False }
func (it *listIterator) Type() ref.Type                 { return types.IteratorType }
func (it *listIterator) Value() any                     { return it.l }
