// Package nodeports is the NodePorts filter plugin: a pod's host ports must
// be free on the node. A port is taken for an IP and protocol; 0.0.0.0 (or
// no IP) stands for every IP, so it conflicts with any use of the same
// protocol and port, and any IP conflicts with it. It takes no arguments.
package nodeports
