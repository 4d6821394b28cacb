// Package patch applies the bodies of PATCH requests to an object's JSON:
// RFC 6902 JSON Patch, RFC 7386 JSON Merge Patch, and Kubernetes strategic
// merge patch, whose list semantics come from the patchStrategy and
// patchMergeKey struct tags of the object's Go type.
package patch
