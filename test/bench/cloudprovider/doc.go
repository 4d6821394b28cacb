// Package cloudprovider benchmarks the cloud controller manager (issue 16):
// the time from creating 100 LoadBalancer Services to all having an
// ingress address, and the cost of a provider call over the plugin socket
// next to the same call in-process. docs/cloud-controller-manager.md
// records the figures.
package cloudprovider
