// Package jsontree handles JSON values held as trees: map[string]any,
// []any, string, bool, nil, and numbers as int64 when they are integers
// that fit and float64 otherwise. It is the form of unstructured objects
// in clients, and of custom resources and their schemas' values in the
// API server; every decoder of such trees goes through Decode or Numbers,
// so all of them read numbers alike; the parser checks a document as it
// reads it, in one pass. Append writes a tree as encoding/json would,
// without its reflection; types that write or read themselves this way
// say so (Appender, Unchecked) and are called without encoding/json.
package jsontree
