// Package structural is the schema of a custom resource: the
// openAPIV3Schema of a CustomResourceDefinition version parsed into a tree
// of Schema nodes, checked to be structural (every node typed, no
// unsupported keywords), and used to validate, default and prune the
// custom objects written and read through the API server. Objects are JSON
// trees as staging's client.Unstructured holds them: map[string]any,
// []any, string, bool, nil, int64 for integers and float64 otherwise.
package structural
