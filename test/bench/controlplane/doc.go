// Package controlplane benchmarks the whole control plane as operators run
// it: the built API server, scheduler, controller manager and simulated
// node agent as separate processes on loopback. Each figure stands next to
// the API server's own write rate measured in the same run.
package controlplane
