// Package soak is the leak hunt of `make soak`: TestSoak starts the whole
// control plane from the built binaries (package e2e/framework) with
// simulated nodes and cloud, drives a moderate mixed workload for
// SOAK_DURATION, samples every daemon's RSS, goroutines and open files
// every SOAK_INTERVAL, and fails when one of them still grows after the
// warm-up (analysis.go) or the workload stalls. Without SOAK_DURATION the
// test skips, so `go test ./...` runs only the analysis's unit tests.
package soak
