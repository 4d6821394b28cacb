// Package ssa holds the integration tests of server-side apply and
// managedFields: each starts a real API server over a real etcd and
// writes through HTTP, for the main resource and each subresource.
package ssa
