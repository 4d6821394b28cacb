package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"

	"platform.io/client/api/jsontree"
)

// Unstructured is an API object of any kind held as its JSON object:
// map[string]any, []any, string, bool, nil, and numbers as int64 when they
// are integers and float64 otherwise.
type Unstructured struct {
	Object map[string]any
}

// UnmarshalJSON replaces u's object with the JSON object data; null leaves
// u as it is.
func (u *Unstructured) UnmarshalJSON(data []byte) error {
	if string(bytes.TrimSpace(data)) == "null" {
		return nil
	}
	v, err := jsontree.Decode(data)
	if err != nil {
		return fmt.Errorf("client: decoding an unstructured object: %w", err)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("client: an unstructured object must be a JSON object, not %T", v)
	}
	u.Object = obj
	return nil
}

// MarshalJSON writes u's object; a nil object is written as {}.
func (u Unstructured) MarshalJSON() ([]byte, error) {
	if u.Object == nil {
		return []byte("{}"), nil
	}
	return json.Marshal(u.Object)
}

// DeepCopy returns a copy of u that shares no maps or slices with it.
func (u *Unstructured) DeepCopy() *Unstructured {
	if u == nil {
		return nil
	}
	if u.Object == nil {
		return &Unstructured{}
	}
	return &Unstructured{Object: jsontree.DeepCopy(u.Object).(map[string]any)}
}

// NestedField returns the value at the path fields, and whether there is one.
func (u *Unstructured) NestedField(fields ...string) (any, bool) {
	return jsontree.Field(u.Object, fields...)
}

// NestedString returns the string at the path fields, and whether there is one.
func (u *Unstructured) NestedString(fields ...string) (string, bool) {
	v, _ := u.NestedField(fields...)
	s, ok := v.(string)
	return s, ok
}

// NestedInt64 returns the integer at the path fields, and whether there is one.
func (u *Unstructured) NestedInt64(fields ...string) (int64, bool) {
	v, _ := u.NestedField(fields...)
	switch n := v.(type) {
	case int64:
		return n, true
	case int:
		return int64(n), true
	case int32:
		return int64(n), true
	}
	return 0, false
}

// NestedMap returns the object at the path fields, and whether there is one.
// The map is u's own, not a copy.
func (u *Unstructured) NestedMap(fields ...string) (map[string]any, bool) {
	v, _ := u.NestedField(fields...)
	m, ok := v.(map[string]any)
	return m, ok
}

// NestedStringMap returns a copy of the object of strings at the path
// fields, and whether there is one; values that are not strings are left out.
func (u *Unstructured) NestedStringMap(fields ...string) (map[string]string, bool) {
	v, _ := u.NestedField(fields...)
	switch m := v.(type) {
	case map[string]any:
		out := make(map[string]string, len(m))
		for k, e := range m {
			if s, ok := e.(string); ok {
				out[k] = s
			}
		}
		return out, true
	case map[string]string:
		return maps.Clone(m), true
	}
	return nil, false
}

// NestedStringSlice returns a copy of the list of strings at the path
// fields, and whether there is one; elements that are not strings are left
// out.
func (u *Unstructured) NestedStringSlice(fields ...string) ([]string, bool) {
	v, _ := u.NestedField(fields...)
	switch l := v.(type) {
	case []any:
		out := make([]string, 0, len(l))
		for _, e := range l {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out, true
	case []string:
		return append([]string(nil), l...), true
	}
	return nil, false
}

// SetNestedField sets the value at the path fields, making the objects on
// the way and replacing values on it that are not objects.
func (u *Unstructured) SetNestedField(value any, fields ...string) {
	if len(fields) == 0 {
		return
	}
	if u.Object == nil {
		u.Object = map[string]any{}
	}
	m := u.Object
	for _, f := range fields[:len(fields)-1] {
		next, ok := m[f].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[f] = next
		}
		m = next
	}
	m[fields[len(fields)-1]] = value
}

// RemoveNestedField removes the value at the path fields, if there is one.
func (u *Unstructured) RemoveNestedField(fields ...string) {
	if len(fields) == 0 {
		return
	}
	m, ok := u.NestedMap(fields[:len(fields)-1]...)
	if ok {
		delete(m, fields[len(fields)-1])
	}
}

// setString sets the string at fields, or removes it when s is empty.
func (u *Unstructured) setString(s string, fields ...string) {
	if s == "" {
		u.RemoveNestedField(fields...)
		return
	}
	u.SetNestedField(s, fields...)
}

// setStringMap sets the object of strings at fields, or removes it when m
// is empty.
func (u *Unstructured) setStringMap(m map[string]string, fields ...string) {
	if len(m) == 0 {
		u.RemoveNestedField(fields...)
		return
	}
	obj := make(map[string]any, len(m))
	for k, v := range m {
		obj[k] = v
	}
	u.SetNestedField(obj, fields...)
}

func (u *Unstructured) str(fields ...string) string {
	s, _ := u.NestedString(fields...)
	return s
}

// GetAPIVersion returns apiVersion.
func (u *Unstructured) GetAPIVersion() string { return u.str("apiVersion") }

// SetAPIVersion sets apiVersion; "" removes it.
func (u *Unstructured) SetAPIVersion(v string) { u.setString(v, "apiVersion") }

// GetKind returns kind.
func (u *Unstructured) GetKind() string { return u.str("kind") }

// SetKind sets kind; "" removes it.
func (u *Unstructured) SetKind(v string) { u.setString(v, "kind") }

// GetName returns metadata.name.
func (u *Unstructured) GetName() string { return u.str("metadata", "name") }

// SetName sets metadata.name; "" removes it.
func (u *Unstructured) SetName(v string) { u.setString(v, "metadata", "name") }

// GetGenerateName returns metadata.generateName.
func (u *Unstructured) GetGenerateName() string { return u.str("metadata", "generateName") }

// SetGenerateName sets metadata.generateName; "" removes it.
func (u *Unstructured) SetGenerateName(v string) { u.setString(v, "metadata", "generateName") }

// GetNamespace returns metadata.namespace.
func (u *Unstructured) GetNamespace() string { return u.str("metadata", "namespace") }

// SetNamespace sets metadata.namespace; "" removes it.
func (u *Unstructured) SetNamespace(v string) { u.setString(v, "metadata", "namespace") }

// GetResourceVersion returns metadata.resourceVersion.
func (u *Unstructured) GetResourceVersion() string { return u.str("metadata", "resourceVersion") }

// SetResourceVersion sets metadata.resourceVersion; "" removes it.
func (u *Unstructured) SetResourceVersion(v string) { u.setString(v, "metadata", "resourceVersion") }

// GetUID returns metadata.uid.
func (u *Unstructured) GetUID() string { return u.str("metadata", "uid") }

// GetGeneration returns metadata.generation, 0 when unset.
func (u *Unstructured) GetGeneration() int64 {
	n, _ := u.NestedInt64("metadata", "generation")
	return n
}

// GetLabels returns a copy of metadata.labels.
func (u *Unstructured) GetLabels() map[string]string {
	m, _ := u.NestedStringMap("metadata", "labels")
	return m
}

// SetLabels sets metadata.labels; an empty map removes them.
func (u *Unstructured) SetLabels(m map[string]string) { u.setStringMap(m, "metadata", "labels") }

// GetAnnotations returns a copy of metadata.annotations.
func (u *Unstructured) GetAnnotations() map[string]string {
	m, _ := u.NestedStringMap("metadata", "annotations")
	return m
}

// SetAnnotations sets metadata.annotations; an empty map removes them.
func (u *Unstructured) SetAnnotations(m map[string]string) {
	u.setStringMap(m, "metadata", "annotations")
}

// GetFinalizers returns a copy of metadata.finalizers.
func (u *Unstructured) GetFinalizers() []string {
	l, _ := u.NestedStringSlice("metadata", "finalizers")
	return l
}

// GetDeletionTimestamp returns metadata.deletionTimestamp as sent, "" when
// the object is not being deleted.
func (u *Unstructured) GetDeletionTimestamp() string {
	return u.str("metadata", "deletionTimestamp")
}
