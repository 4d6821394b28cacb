// Package pod is the registry row of core/v1 pods: pod-only defaults, the
// initial status (phase and QoS class), the narrow set of spec fields an
// update may change, the default not-ready and unreachable tolerations
// of a new pod, field selectors, and the binding subresource the
// scheduler posts to place a pod on a node.
package pod
