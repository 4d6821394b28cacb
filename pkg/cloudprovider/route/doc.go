// Package route is the route loop: the cloud's route table gets one route
// per node pod CIDR (assigned by node IPAM in the controller manager),
// targeting the node; routes inside --cluster-cidr that match no node are
// deleted. It runs only with --allocate-node-cidrs and
// --configure-cloud-routes, as upstream.
package route
