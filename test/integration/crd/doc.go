// Package crd tests custom resources on a real API server and etcd: a
// CustomResourceDefinition established and served within seconds, every
// verb on its objects (namespaced and cluster-scoped), discovery, content
// negotiation without protobuf, RBAC, and deletion of the definition with
// its objects.
package crd
