// Package queuesort is the PrioritySort queue-sort plugin: higher
// spec.priority first, then the pod that entered the queue earlier.
package queuesort
