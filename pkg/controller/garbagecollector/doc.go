// Package garbagecollector is the garbage collector loop: a uid-keyed graph
// of every watched object with its owners and dependents. It deletes
// dependents whose owners are all gone (verified by a live GET), deletes
// them before their owner under Foreground propagation, and removes their
// references to an owner deleted with the orphan finalizer.
package garbagecollector
