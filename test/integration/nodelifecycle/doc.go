// Package nodelifecycle tests, against a real API server and simulated
// nodes, that a node which stops its heartbeats is marked Unknown, tainted
// and emptied of the pods that do not tolerate the taint, and that the
// API server gives new pods the default not-ready and unreachable
// tolerations.
package nodelifecycle
