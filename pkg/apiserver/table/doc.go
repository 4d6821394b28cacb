// Package table renders objects as meta.platform.io Tables, the form
// clients ask for with Accept: application/json;as=Table (kubectl get does).
//
// Build turns a resource's objects into a Table: the resource's own columns
// when its registry row sets Table, otherwise the two default columns every
// resource has (Name and Created At). Each row carries the object as
// PartialObjectMetadata, the whole object, or nothing, as includeObject asks.
//
// The package also holds what the per-resource column sets share: the
// common column definitions (Name, Age, Containers, Images, Selector), the
// short human durations of Age cells ("5m", "3d4h"), and the renderings of
// container lists, labels and selectors.
package table
