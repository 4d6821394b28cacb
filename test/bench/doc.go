// Package bench holds the API server's benchmarks, run by `make bench`:
// throughput and latency percentiles of REST operations through an
// in-process server, lists of many pods, watch fan-out, the watch cache's
// memory, the JSON and protobuf encodings and the cost of authentication
// and authorization, each next to a baseline measured in the same run (raw
// etcd with the same value size, encoding the same objects once, a single
// watcher, the process before loading, the same server under AlwaysAllow),
// since the machines are noisy. docs/perf.md records the results.
package bench
