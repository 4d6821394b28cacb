// Package structural is the schema of a custom resource: the
// openAPIV3Schema of a CustomResourceDefinition version parsed into a tree
// of Schema nodes (Parse), checked to be structural and acceptable to the
// CRD API (Check, Warnings), and used to prune, default and validate the
// custom objects written and read through the API server (Prune,
// ApplyDefaults, Validate, in that order on a write). Objects are JSON
// trees (staging's api/jsontree): map[string]any, []any, string, bool,
// nil, int64 for integers and float64 otherwise.
package structural
