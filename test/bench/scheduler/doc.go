// Package scheduler benchmarks the scheduler against a real API server.
//
// BenchmarkScheduling: pods scheduled per second for 500 nodes with 1,000
// pods and 5,000 nodes with 10,000 pods (plain pods, node affinity,
// inter-pod anti-affinity, topology spread), next to the API server's own
// binding rate measured in the same run by a client that binds pre-chosen
// pods as fast as it can with the scheduler's binding concurrency.
//
// BenchmarkSchedulerStart: the built platform-scheduler (PLATFORM_BIN_DIR,
// as make bench sets it) at 5,000 nodes with 10,000 pending pods: time
// from the exec to the first binding, in phases, next to the time the
// benchmark's own client lists the same objects; and with several
// replicas, time from the leader's SIGTERM or SIGKILL to the successor's
// first binding. docs/perf.md records both.
package scheduler
