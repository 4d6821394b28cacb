// Package garbagecollector is the garbage collector loop: it keeps a graph
// of every watched object keyed by uid, with its owners and dependents, and
// deletes dependents whose owners are all gone (Background), deletes them
// before their owner (Foreground, the foregroundDeletion finalizer), or
// removes the references to an owner being deleted with the orphan
// finalizer (Orphan). It never deletes an object whose owner a live GET finds.
package garbagecollector
