// Package cluster runs what the chaos scenarios break: three Debian etcd
// members on their own loopback addresses, whose peer traffic passes
// through fault-injecting proxies, and the built platform-apiserver on
// top, each a real process that can be killed, stopped and restarted.
package cluster
