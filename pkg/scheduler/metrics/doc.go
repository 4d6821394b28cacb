// Package metrics holds the scheduler's Prometheus metrics: attempts by
// result, end-to-end and per-attempt latency, extension-point and plugin
// latency, pending pods by queue, and preemption. Everything is registered
// on the registry the daemon gives; nothing is global.
package metrics
