// Package defaultpreemption is the DefaultPreemption scheduler plugin (a
// post-filter): when no node fits a pod, it finds the nodes where evicting
// lower-priority pods would make room, picks one as upstream does, evicts
// the fewest pods needed there and nominates the node for the pod.
package defaultpreemption
