package instance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"

	"platform.io/client/api/jsontree"
	"platform.io/client/api/meta"
)

// Object is one custom object.
type Object struct {
	meta.TypeMeta
	meta.ObjectMeta
	// Content holds the top-level fields other than apiVersion, kind and
	// metadata (and status, when SplitStatus is set).
	Content map[string]any
	// Status is the status stanza of a type with the status subresource:
	// the generic store's status rules work on a field of this name. It is
	// nil, and status stays in Content, when SplitStatus is false.
	Status any
	// SplitStatus says status is kept in Status rather than Content. It
	// is set by the constructor of the type's objects and kept by decoding.
	SplitStatus bool
}

var (
	_ meta.Object        = (*Object)(nil)
	_ jsontree.Appender  = (*Object)(nil)
	_ jsontree.Appender  = (*metadataJSON)(nil)
	_ jsontree.Unchecked = (*Object)(nil)
)

// GetObjectMeta returns the object's metadata.
func (o *Object) GetObjectMeta() *meta.ObjectMeta { return &o.ObjectMeta }

// MarshalJSON writes the object as one JSON object.
func (o *Object) MarshalJSON() ([]byte, error) {
	return o.AppendJSON(nil)
}

// AppendJSON appends MarshalJSON's encoding to dst; the API server's
// encoders call it directly (see jsontree.Marshal).
func (o *Object) AppendJSON(dst []byte) ([]byte, error) {
	return jsontree.Append(dst, o.top((*metadataJSON)(&o.ObjectMeta)))
}

// metadataJSON is ObjectMeta with jsontree's AppendJSON hook, which
// ObjectMeta itself lacks (see meta.AppendObjectMetaJSON). encoding/json
// writes it as it writes ObjectMeta.
type metadataJSON meta.ObjectMeta

// AppendJSON appends encoding/json's encoding of the metadata.
func (m *metadataJSON) AppendJSON(dst []byte) ([]byte, error) {
	return meta.AppendObjectMetaJSON(dst, (*meta.ObjectMeta)(m))
}

// top is the object's top-level members: Content's, the type, metadata
// as given, and the split status.
func (o *Object) top(metadata any) map[string]any {
	m := make(map[string]any, len(o.Content)+4)
	maps.Copy(m, o.Content)
	if o.APIVersion != "" {
		m["apiVersion"] = o.APIVersion
	}
	if o.Kind != "" {
		m["kind"] = o.Kind
	}
	m["metadata"] = metadata
	if o.SplitStatus && o.Status != nil {
		m["status"] = o.Status
	}
	return m
}

// UnstructuredContent returns the object as one JSON tree, as decoding
// MarshalJSON's output would, without encoding it: only the metadata is
// converted. The tree shares Content's values, so it must not be changed.
func (o *Object) UnstructuredContent() (map[string]any, error) {
	metadata, err := metadataTree(&o.ObjectMeta)
	if err != nil {
		return nil, err
	}
	return o.top(metadata), nil
}

// UnmarshalJSON replaces the object with the JSON object data, keeping
// SplitStatus.
func (o *Object) UnmarshalJSON(data []byte) error {
	return o.DecodeJSON(data)
}

// DecodeJSON is UnmarshalJSON for data nobody has checked: it refuses
// data that is not well-formed JSON with encoding/json's error, leaving
// the object as it was (see jsontree.Unchecked).
func (o *Object) DecodeJSON(data []byte) error {
	tree, raw, err := jsontree.DecodeObject(data, "apiVersion", "kind", "metadata")
	if err != nil {
		return err
	}
	if tree == nil {
		return fmt.Errorf("a custom object must be a JSON object")
	}
	*o = Object{SplitStatus: o.SplitStatus, Content: tree}
	for k, v := range raw {
		switch k {
		case "apiVersion":
			err = decodeString(v, &o.APIVersion, k)
		case "kind":
			err = decodeString(v, &o.Kind, k)
		case "metadata":
			if !bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
				err = json.Unmarshal(v, &o.ObjectMeta)
			}
		}
		if err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
	}
	if st, ok := tree["status"]; ok && o.SplitStatus {
		o.Status = st
		delete(tree, "status")
	}
	return nil
}

func decodeString(raw json.RawMessage, dst *string, name string) error {
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		return fmt.Errorf("%s must be a string", name)
	}
	return nil
}

// DecodeValue decodes one JSON value into the tree form of the package.
func DecodeValue(raw []byte) (any, error) {
	return jsontree.Decode(raw)
}

// Field returns the value at the dotted path (".spec.replicas"), and
// whether there is one. Status is found whether split or not.
func (o *Object) Field(path []string) (any, bool) {
	if len(path) == 0 {
		return nil, false
	}
	var v any
	switch {
	case path[0] == "status" && o.SplitStatus:
		v = o.Status
	case path[0] == "metadata":
		m, err := metadataTree(&o.ObjectMeta)
		if err != nil {
			return nil, false
		}
		v = m
	default:
		var ok bool
		if v, ok = o.Content[path[0]]; !ok {
			return nil, false
		}
	}
	return jsontree.Field(v, path[1:]...)
}

// SetField sets the value at path, making the objects on the way.
func (o *Object) SetField(path []string, v any) {
	if len(path) == 0 {
		return
	}
	if len(path) == 1 {
		if path[0] == "status" && o.SplitStatus {
			o.Status = v
			return
		}
		if o.Content == nil {
			o.Content = map[string]any{}
		}
		o.Content[path[0]] = v
		return
	}
	var top map[string]any
	if path[0] == "status" && o.SplitStatus {
		top, _ = o.Status.(map[string]any)
		if top == nil {
			top = map[string]any{}
			o.Status = top
		}
	} else {
		if o.Content == nil {
			o.Content = map[string]any{}
		}
		top, _ = o.Content[path[0]].(map[string]any)
		if top == nil {
			top = map[string]any{}
			o.Content[path[0]] = top
		}
	}
	m := top
	for _, f := range path[1 : len(path)-1] {
		next, _ := m[f].(map[string]any)
		if next == nil {
			next = map[string]any{}
			m[f] = next
		}
		m = next
	}
	m[path[len(path)-1]] = v
}
