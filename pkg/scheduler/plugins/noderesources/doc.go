// Package noderesources holds two plugins about a node's compute
// resources: NodeResourcesFit filters out nodes without room for the
// pod's requests (pod count, cpu, memory, ephemeral storage, extended
// resources) and scores by a strategy (LeastAllocated by default,
// MostAllocated, RequestedToCapacityRatio); NodeResourcesBalancedAllocation
// scores nodes whose resources would be used evenly higher.
package noderesources
