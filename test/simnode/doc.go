// Package simnode is a simulated node agent: it registers many nodes in one
// process, renews each node's Lease and reports its status, runs the pods
// bound to its nodes (Running, ready after a delay, Jobs' pods completing),
// and confirms graceful deletions. Heartbeats of any node can be stopped and
// resumed to drive the node lifecycle loop. It runs no containers.
package simnode
