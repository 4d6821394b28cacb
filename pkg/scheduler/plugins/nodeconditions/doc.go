// Package nodeconditions is the NodeConditions filter plugin, the
// scheduler's quality-of-service rule. A node is rejected when its Ready
// condition is present and not True, its NetworkUnavailable condition is
// present and not False, or it is under DiskPressure or PIDPressure; a
// node under MemoryPressure is rejected only for BestEffort pods. A node
// that reports no such condition is not rejected for it (as upstream's
// CheckNodeCondition). All failures are listed; preemption cannot help.
//
// BestEffort is upstream's QoS rule: no container or init container (nor
// the pod-level resources) sets a non-zero cpu or memory request or limit.
//
// A pod passes a check when it tolerates the taint the node lifecycle loop
// puts on such nodes (node.platform.io/not-ready when Ready is False or
// missing a status, node.platform.io/unreachable when Unknown,
// node.platform.io/network-unavailable, .../memory-pressure,
// .../disk-pressure, .../pid-pressure) with effect NoSchedule, or with
// effect NoExecute and no tolerationSeconds. A NoExecute toleration
// bounded in time (such as the 300 s default every pod gets for not-ready
// and unreachable) only delays eviction, so it does not count: otherwise
// every pod would pass the Ready check. DaemonSet pods tolerate these
// taints without bound and still land. It takes no arguments.
package nodeconditions
