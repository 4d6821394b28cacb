// Package cacher is the watch cache: per resource, one etcd watch feeds an
// in-memory copy of the current objects (stored bytes plus the attributes
// selectors need) and a window of recent events. It serves every watch (so
// many watchers cost etcd nothing extra), cached and consistent lists, and
// counts, and it decorates the etcd store: writes go through to etcd, with
// the cached object as a first guess of the current state.
//
// Guarantees: events reach each watcher in revision order, with no gaps; a
// watch from a revision older than the window fails with ErrExpired; a
// watcher that falls too far behind is stopped (its client resumes from its
// last revision). A consistent list waits until the cache has seen etcd's
// current revision.
package cacher
