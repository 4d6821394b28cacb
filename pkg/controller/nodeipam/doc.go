// Package nodeipam is the controller manager's node IPAM loop: with
// --allocate-node-cidrs it gives every node without one a pod CIDR of
// --node-cidr-mask-size bits from --cluster-cidr (spec.podCIDR and
// spec.podCIDRs), and frees it when the node goes. IPv4 single-stack only.
package nodeipam
