// Package quota computes what objects use of the resources a ResourceQuota
// tracks (object counts, count/<resource>.<group>, and the compute
// resources of pods), which quotas an object falls under by their scopes,
// and the arithmetic on resource lists. The ResourceQuota admission plugin
// and the quota controller share it, so admission charges exactly what
// the controller later recounts. It imports only the staging API types.
package quota
