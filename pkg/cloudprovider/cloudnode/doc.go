// Package cloudnode is the cloud-node loop: a node registered with the
// node.cloudprovider.platform.io/uninitialized taint gets its provider ID,
// addresses, zone, region and instance-type labels from the provider, then
// loses the taint; initialized nodes have their addresses refreshed every
// --node-status-update-frequency.
package cloudnode
