// Package podcontrol is what the workload loops share for the pods they
// own: creating pods from a template with a controller ownerReference and
// events, deleting them, adopting orphans and releasing pods by selector,
// starting creates in slow-start batches, and ranking pods so the least
// valuable are deleted first. It keeps no state; expectations stay with
// each loop.
package podcontrol
