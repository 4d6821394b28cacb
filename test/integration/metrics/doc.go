// Package metrics tests the resource metrics pipeline end to end on real
// parts: an API server with RBAC, simulated nodes serving their usage, and
// platform-metrics-server run in-process with its full handler chain,
// queried as the API server's aggregator would (front-proxy certificate and
// X-Remote-User headers).
package metrics
