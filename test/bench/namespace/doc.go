// Package namespace benchmarks namespace deletion, run by `make bench`: an
// in-process API server with the namespace and garbage collector loops
// deletes a namespace holding 5,000 objects (configmaps, secrets, pods),
// next to the server's own write rate measured in the same run (creating
// those objects). docs/perf.md records the results.
package namespace
