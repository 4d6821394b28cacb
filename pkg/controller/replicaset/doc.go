// Package replicaset is the replicaset loop: it keeps spec.replicas active
// pods matching each ReplicaSet's selector, creating them in slow-start
// batches and deleting the least valuable first, adopts and releases pods
// by selector, and reports counts and the ReplicaFailure condition in status.
package replicaset
