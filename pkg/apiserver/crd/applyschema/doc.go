// Package applyschema converts the structural schema of a custom resource
// version into the structured-merge-diff schema server-side apply merges
// its objects by: properties are struct fields, additionalProperties map
// values, x-kubernetes-list-type and x-kubernetes-map-type say how lists
// and maps merge (lists without a list type are atomic, as upstream), and
// apiVersion, kind and metadata (ObjectMeta, shared with the built-in
// kinds) are added at the root and in embedded resources.
package applyschema
