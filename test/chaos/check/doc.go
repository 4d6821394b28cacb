// Package check holds the history a chaos workload records (operations
// with call and return times and outcomes, and the watchers' streams) and
// the checks run on it afterwards: linearizability of each key with
// porcupine, lists as atomic snapshots, and watch continuity. It is pure
// logic: it knows nothing of HTTP or processes.
package check
