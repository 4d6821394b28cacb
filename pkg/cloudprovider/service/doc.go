// Package service is the cloud controller manager's service loop: a
// LoadBalancer Service (with no spec.loadBalancerClass) gets a load
// balancer from the provider, its ingress in status.loadBalancer and the
// load-balancer-cleanup finalizer; the load balancer follows the service's
// ports and the set of ready nodes, and is deleted, finalizer last, when
// the service is deleted or stops being a LoadBalancer.
package service
