// Package podautoscaler is the horizontal pod autoscaler loop: every sync
// period it reads each autoscaler's target through the scale subresource,
// the target's pods and their usage from the resource metrics API, computes
// a replica count with upstream's algorithm (tolerance, missing and
// not-yet-ready pods, stabilization windows and rate policies, min/max
// clamp), writes the scale, records an event, and reports the outcome in
// the autoscaler's status and conditions. Recommendations and scale events
// are kept in memory, so a restarted controller starts a fresh window.
package podautoscaler
