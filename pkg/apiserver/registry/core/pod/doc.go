// Package pod is the registry row of core/v1 pods: pod-only defaults, the
// initial status (phase and QoS class), the narrow set of spec fields an
// update may change, field selectors, and the binding subresource the
// scheduler posts to place a pod on a node.
package pod
