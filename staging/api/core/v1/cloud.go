package v1

// Well-known keys the cloud controller manager and the agents that
// register nodes for it agree on: upstream's keys with the platform.io
// brand.
const (
	// TaintNodeUninitialized marks a node registered for an external
	// cloud provider that the cloud-node loop has not initialized yet.
	TaintNodeUninitialized = "node.cloudprovider.platform.io/uninitialized"
	// TaintNodeShutdown marks a node whose cloud instance is shut down.
	TaintNodeShutdown = "node.cloudprovider.platform.io/shutdown"

	// LabelTopologyZone is the node's failure domain.
	LabelTopologyZone = "topology.platform.io/zone"
	// LabelTopologyRegion is the node's region.
	LabelTopologyRegion = "topology.platform.io/region"
	// LabelInstanceType is the node's cloud instance type.
	LabelInstanceType = "node.platform.io/instance-type"
	// LabelExcludeFromExternalLoadBalancers keeps a node out of the
	// backends of the cloud's load balancers.
	LabelExcludeFromExternalLoadBalancers = "node.platform.io/exclude-from-external-load-balancers"

	// FinalizerLoadBalancerCleanup holds a LoadBalancer Service until the
	// service loop has deleted its load balancer.
	FinalizerLoadBalancerCleanup = "service.platform.io/load-balancer-cleanup"
)
