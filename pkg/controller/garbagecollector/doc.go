// Package garbagecollector is the garbage collector loop: a uid-keyed graph
// of every watched object with its owners and dependents. It deletes
// dependents whose owners are all gone (verified by a live GET), deletes
// them before their owner under Foreground propagation, and removes their
// references to an owner deleted with the orphan finalizer.
//
// What it watches is decided by the server's discovery, read at start and
// every DiscoveryPeriod: every resource that can be listed, watched and
// deleted (events excepted), custom resources included. Built-in resources
// are watched through the process's shared typed informers, others through
// metadata informers of the collector's own, started and stopped as
// resources come and go. An owner of a kind discovery does not list is
// retried, never taken for absent.
package garbagecollector
