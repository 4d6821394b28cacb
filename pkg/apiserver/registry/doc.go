// Package registry is the API server's one generic REST store. A Resource
// row describes a served resource (names, scope, versions, subresources) and
// carries its Strategy (defaulting, validation, create and update rules); the
// Store implements create, get, list, update, patch, delete and delete
// collection for every resource on top of storage.Interface. Per-resource
// packages below this one supply only their Resource rows.
package registry
