// Package bench holds the API server's benchmarks, run by `make bench`:
// throughput and latency percentiles of REST operations through an
// in-process server, each next to a baseline measured in the same run
// (raw etcd with the same value size), since the machines are noisy.
// docs/perf.md records the results.
package bench
