// Package proxy is a fault-injecting TCP proxy for etcd's peer traffic:
// one proxy sits in front of each member's peer listener, the members
// advertise the proxies' addresses, and a Network of them partitions a
// member by silently dropping every byte it sends or is sent, without
// closing connections, as a lost link does.
package proxy
