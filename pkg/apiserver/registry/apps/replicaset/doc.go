// Package replicaset is the registry row of apps/v1 replicasets: their
// defaults, validation, selector immutability, scale subresource and the
// status.replicas field selector.
package replicaset
