// Package nodeunschedulable is the NodeUnschedulable filter plugin: a node
// with spec.unschedulable (cordoned) takes only pods that tolerate the
// node.platform.io/unschedulable:NoSchedule taint. It takes no arguments.
package nodeunschedulable
