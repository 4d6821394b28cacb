// Package node is the registry row of core/v1 nodes: cluster-scoped
// machines whose pod CIDRs and provider ID are set once, whose taints are
// validated, and whose allocatable resources default to their capacity.
package node
