// Package queue is the scheduling queue: an active heap ordered by the
// profile's queue-sort plugin, a backoff heap of pods waiting out their
// retry delay, and an unschedulable pool whose pods return on the cluster
// events their rejecting plugins registered, or after a maximum stay. It
// also tracks the pods preemption nominated to nodes (framework.PodNominator).
package queue
