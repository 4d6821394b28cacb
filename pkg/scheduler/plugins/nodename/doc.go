// Package nodename is the NodeName filter plugin: a pod that names a node
// in spec.nodeName fits only that node. It takes no arguments.
package nodename
