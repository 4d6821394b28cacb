package v1

// The well-known taint keys: the node lifecycle controller puts them on
// nodes whose conditions or state call for them, the scheduler and the
// daemon set controller read them, and the API server gives pods default
// NoExecute tolerations of the first two.
const (
	// TaintNodeNotReady: the node's Ready condition is False.
	TaintNodeNotReady = "node.platform.io/not-ready"
	// TaintNodeUnreachable: the node's Ready condition is Unknown (it
	// stopped reporting).
	TaintNodeUnreachable = "node.platform.io/unreachable"
	// TaintNodeUnschedulable: the node is cordoned (spec.unschedulable).
	TaintNodeUnschedulable = "node.platform.io/unschedulable"
	// TaintNodeMemoryPressure: the MemoryPressure condition is True.
	TaintNodeMemoryPressure = "node.platform.io/memory-pressure"
	// TaintNodeDiskPressure: the DiskPressure condition is True.
	TaintNodeDiskPressure = "node.platform.io/disk-pressure"
	// TaintNodePIDPressure: the PIDPressure condition is True.
	TaintNodePIDPressure = "node.platform.io/pid-pressure"
	// TaintNodeNetworkUnavailable: the NetworkUnavailable condition is
	// not False.
	TaintNodeNetworkUnavailable = "node.platform.io/network-unavailable"
)
