// Package nodeconditions is the NodeConditions filter plugin, the
// scheduler's quality-of-service rule: it rejects nodes whose Ready
// condition is not True or NetworkUnavailable not False, nodes under
// DiskPressure or PIDPressure, and, for BestEffort pods only, nodes under
// MemoryPressure. It takes no arguments.
//
// BestEffort is upstream's QoS class: no container or init container (nor
// pod-level resources) sets a non-zero cpu or memory request or limit.
// A condition the node does not report is not checked, as upstream's
// CheckNodeCondition. A pod passes a check if it tolerates the matching
// taint (node.platform.io/not-ready for Ready False, .../unreachable for
// Unknown, .../network-unavailable, .../memory-pressure, .../disk-pressure,
// .../pid-pressure) with effect NoSchedule, or NoExecute without
// tolerationSeconds: a time-bounded NoExecute toleration, like the 300 s
// one every pod gets by default, only delays eviction and does not count.
package nodeconditions
