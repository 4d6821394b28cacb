// Package lease is the registry row of coordination.platform.io/v1 leases,
// the objects leader election and node heartbeats are built on.
package lease
