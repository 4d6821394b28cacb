// Package chaos runs a recorded workload of ConfigMap writes, reads, lists
// and watches against the built platform-apiserver over a real
// three-member etcd while it injects one kind of fault per scenario, then
// checks the history (package check): each key linearizable, each list
// an atomic snapshot, each watcher complete and in order.
package chaos
