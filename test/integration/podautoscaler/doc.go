// Package podautoscaler tests the horizontal pod autoscaler loop against a
// real API server with the deployment and replicaset loops: pods are
// marked running and ready by the test (no node runs them), and their CPU
// usage comes from a test server that speaks the resource metrics API and
// whose figures the test raises and lowers.
package podautoscaler
