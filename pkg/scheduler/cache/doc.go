// Package cache is the scheduler's view of the cluster: nodes and the pods
// bound to them (fed by informers), pods assumed on a node before their
// binding is observed (forgotten when it fails, expired when it is never
// confirmed), image summaries, and an incremental Snapshot that re-clones
// only the nodes changed since the last one.
package cache
