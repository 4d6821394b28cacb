// Package noderesources holds NodeResourcesFit, which filters out nodes
// without room for the pod's requests (pods, cpu, memory, ephemeral
// storage, extended resources) and scores by LeastAllocated, MostAllocated
// or RequestedToCapacityRatio, and NodeResourcesBalancedAllocation, which
// favours nodes whose resources would be used evenly.
package noderesources
