// Package customresourcedefinition is the registry row of
// apiextensions.platform.io/v1 customresourcedefinitions: cluster-scoped,
// with a status subresource, upstream's defaulting and validation (names,
// versions, one storage version, a structural schema per version), and
// storedVersions kept by the strategy. A delete adds the cleanup finalizer
// and the Terminating condition; the API server's CRD controller deletes
// the instances and removes the finalizer.
package customresourcedefinition
