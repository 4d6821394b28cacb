// Package jsontree handles JSON values held as trees: map[string]any,
// []any, string, bool, nil, and numbers as int64 when they are integers
// that fit and float64 otherwise. It is the form of unstructured objects
// in clients, and of custom resources and their schemas' values in the
// API server; every decoder of such trees goes through Decode or Numbers,
// so all of them read numbers alike. Append writes a tree as
// encoding/json would, without its reflection.
package jsontree
