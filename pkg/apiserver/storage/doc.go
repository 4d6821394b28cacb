// Package storage defines the small interface the API server's registry uses
// to persist objects: create-if-absent, get, list a key range at a revision,
// compare-and-swap updates and deletes, all on encoded bytes. Implementations
// (etcd3, and later the watch cache that decorates it) share one conformance
// suite. Every write is conditional on the revision the caller last saw.
package storage
