package meta

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"platform.io/client/api/jsontree"
	"platform.io/client/internal/jsonstring"
)

// AppendObjectMetaJSON appends to dst the JSON encoding of m, byte for
// byte what encoding/json writes for it with HTML escaping off (and
// without the Encoder's newline): the fields in declaration order with
// their tags' omitempty rules, map keys sorted, times as Time.MarshalJSON
// writes them and a FieldsV1 trie compacted, as encoding/json compacts
// what a Marshaler returns. Custom objects write their metadata through
// it (as a jsontree.Appender) rather than through encoding/json's
// reflection and its second pass over each Marshaler's output.
// It is a function, not an AppendJSON method, because every built-in
// type embeds ObjectMeta and would inherit the method: encoders that
// call AppendJSON when a value has one would write only its metadata.
func AppendObjectMetaJSON(dst []byte, m *ObjectMeta) ([]byte, error) {
	dst = append(dst, '{')
	// creationTimestamp has no omitempty, so it is always there and
	// every member after it starts with a comma; the ones before do
	// when one of them came first.
	dst = appendStringMember(dst, `"name":`, m.Name)
	dst = appendStringMember(dst, `"generateName":`, m.GenerateName)
	dst = appendStringMember(dst, `"namespace":`, m.Namespace)
	dst = appendStringMember(dst, `"selfLink":`, m.SelfLink)
	dst = appendStringMember(dst, `"uid":`, string(m.UID))
	dst = appendStringMember(dst, `"resourceVersion":`, m.ResourceVersion)
	if m.Generation != 0 {
		dst = appendKey(dst, `"generation":`)
		dst = strconv.AppendInt(dst, m.Generation, 10)
	}
	dst = appendKey(dst, `"creationTimestamp":`)
	dst = m.CreationTimestamp.appendJSON(dst)
	if m.DeletionTimestamp != nil {
		dst = append(dst, `,"deletionTimestamp":`...)
		dst = m.DeletionTimestamp.appendJSON(dst)
	}
	if m.DeletionGracePeriodSeconds != nil {
		dst = append(dst, `,"deletionGracePeriodSeconds":`...)
		dst = strconv.AppendInt(dst, *m.DeletionGracePeriodSeconds, 10)
	}
	if len(m.Labels) > 0 {
		dst = append(dst, `,"labels":`...)
		dst = appendStringMap(dst, m.Labels)
	}
	if len(m.Annotations) > 0 {
		dst = append(dst, `,"annotations":`...)
		dst = appendStringMap(dst, m.Annotations)
	}
	if len(m.OwnerReferences) > 0 {
		dst = append(dst, `,"ownerReferences":[`...)
		for i := range m.OwnerReferences {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = m.OwnerReferences[i].appendJSON(dst)
		}
		dst = append(dst, ']')
	}
	if len(m.Finalizers) > 0 {
		dst = append(dst, `,"finalizers":[`...)
		for i, f := range m.Finalizers {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = jsonstring.Append(dst, f)
		}
		dst = append(dst, ']')
	}
	if len(m.ManagedFields) > 0 {
		dst = append(dst, `,"managedFields":[`...)
		for i := range m.ManagedFields {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = m.ManagedFields[i].appendJSON(dst); err != nil {
				return nil, err
			}
		}
		dst = append(dst, ']')
	}
	return append(dst, '}'), nil
}

// appendKey appends the quoted key and colon k, after a comma unless
// it is the object's first member (dst ends with its brace).
func appendKey(dst []byte, k string) []byte {
	if dst[len(dst)-1] != '{' {
		dst = append(dst, ',')
	}
	return append(dst, k...)
}

// appendStringMember appends the member k: v, unless v is empty
// (omitempty).
func appendStringMember(dst []byte, k, v string) []byte {
	if v == "" {
		return dst
	}
	return jsonstring.Append(appendKey(dst, k), v)
}

// appendStringMap appends m as a JSON object with its keys sorted, as
// encoding/json writes a map.
func appendStringMap(dst []byte, m map[string]string) []byte {
	var buf [16]string
	keys := buf[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	dst = append(dst, '{')
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonstring.Append(dst, k)
		dst = append(dst, ':')
		dst = jsonstring.Append(dst, m[k])
	}
	return append(dst, '}')
}

func (r *OwnerReference) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"apiVersion":`...)
	dst = jsonstring.Append(dst, r.APIVersion)
	dst = append(dst, `,"kind":`...)
	dst = jsonstring.Append(dst, r.Kind)
	dst = append(dst, `,"name":`...)
	dst = jsonstring.Append(dst, r.Name)
	dst = append(dst, `,"uid":`...)
	dst = jsonstring.Append(dst, string(r.UID))
	if r.Controller != nil {
		dst = append(dst, `,"controller":`...)
		dst = strconv.AppendBool(dst, *r.Controller)
	}
	if r.BlockOwnerDeletion != nil {
		dst = append(dst, `,"blockOwnerDeletion":`...)
		dst = strconv.AppendBool(dst, *r.BlockOwnerDeletion)
	}
	return append(dst, '}')
}

func (e *ManagedFieldsEntry) appendJSON(dst []byte) ([]byte, error) {
	dst = append(dst, '{')
	dst = appendStringMember(dst, `"manager":`, e.Manager)
	dst = appendStringMember(dst, `"operation":`, e.Operation)
	dst = appendStringMember(dst, `"apiVersion":`, e.APIVersion)
	if e.Time != nil {
		dst = appendKey(dst, `"time":`)
		dst = e.Time.appendJSON(dst)
	}
	dst = appendStringMember(dst, `"fieldsType":`, e.FieldsType)
	if e.FieldsV1 != nil {
		dst = appendKey(dst, `"fieldsV1":`)
		var err error
		if dst, err = e.FieldsV1.AppendJSON(dst); err != nil {
			return nil, err
		}
	}
	dst = appendStringMember(dst, `"subresource":`, e.Subresource)
	return append(dst, '}'), nil
}

// AppendJSON appends what encoding/json writes for f: MarshalJSON's
// output, checked and compacted (null for a nil Raw). It refuses a Raw
// that is not one well-formed JSON value, as encoding/json does.
func (f *FieldsV1) AppendJSON(dst []byte) ([]byte, error) {
	if f.Raw == nil {
		return append(dst, "null"...), nil
	}
	if isCompactJSON(f.Raw) {
		// What the server keeps (its own tries, and tries read from
		// JSON, which encoding/json compacted when it wrote them) is
		// this; checking it costs a fraction of json.Compact's scan.
		return append(dst, f.Raw...), nil
	}
	buf := bytes.NewBuffer(dst)
	if err := json.Compact(buf, f.Raw); err != nil {
		return nil, fmt.Errorf("json: error calling MarshalJSON for type *meta.FieldsV1: %w", err)
	}
	return buf.Bytes(), nil
}

// maxCompactDepth bounds the nesting isCompactJSON takes; deeper values
// go to json.Compact.
const maxCompactDepth = 64

// isCompactJSON reports whether b is one well-formed JSON value with no
// whitespace between its tokens, which json.Compact would copy as it is.
// It may say no to such a value (one nested deeper than maxCompactDepth),
// never yes to any other.
func isCompactJSON(b []byte) bool { return jsontree.IsCompact(b, maxCompactDepth) }
