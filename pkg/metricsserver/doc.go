// Package metricsserver is the resource metrics pipeline: it scrapes every
// node's kubelet-style /metrics/resource endpoint, turns each node's and
// container's cumulative CPU counter into a rate over the window between
// its last two samples, keeps only that latest result, and serves it as
// the resource metrics API (PodMetrics, NodeMetrics) under both
// metrics.platform.io and metrics.k8s.io, for the API server to aggregate.
//
// A node or a container appears once it has been scraped twice with the
// same start time; a pod appears once all of its scraped containers do.
// Nothing is stored across restarts.
package metricsserver
