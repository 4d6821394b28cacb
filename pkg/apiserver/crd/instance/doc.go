// Package instance is the in-memory form of a custom object: the typed
// TypeMeta and ObjectMeta the generic store works on, and every other field
// as a JSON tree (map[string]any, []any, string, bool, nil, int64 for
// integers and float64 for other numbers, as staging's client.Unstructured).
// It has no protobuf form: custom objects are stored and served as JSON.
package instance
