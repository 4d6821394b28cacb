// Package topology holds what the plugins that count pods per topology
// domain (InterPodAffinity, PodTopologySpread) share: Pair, the domain a
// node is in for one label key. What they count, how they count it in
// parallel and how they normalize scores differ, and stay in the plugins:
// InterPodAffinity merges per-node maps under a lock (kept on the stack
// of each node's work), PodTopologySpread counts into per-node slices or
// atomics, so a common parallel helper would cost allocations per node.
package topology
