// Package apps tests the replicaset and deployment loops against a real
// API server: pods are created, adopted, released and deleted by the
// replicaset loop, and Deployments roll out, scale, pause, roll back and
// report progress. No node runs pods here; tests mark pods ready
// themselves.
package apps
