// Package v1beta1 defines the resource metrics API, metrics.platform.io/v1beta1
// (also served as metrics.k8s.io/v1beta1, the group `kubectl top` asks for):
// read-only PodMetrics and NodeMetrics, each a usage sample over a window.
// An aggregated metrics server serves them; the autoscaler reads them.
// JSON names and protobuf numbers match upstream's metrics v1beta1.
//
//go:generate go run ../../../hack/protogen
package v1beta1
