// Package scheduler benchmarks the scheduler against a real API server:
// pods scheduled per second for 500 nodes with 1,000 pods and 5,000 nodes
// with 10,000 pods (plain pods, node affinity, inter-pod anti-affinity,
// topology spread), next to the API server's own binding rate measured in
// the same run by a client that binds pre-chosen pods as fast as it can
// with the scheduler's binding concurrency. docs/perf.md records them.
package scheduler
