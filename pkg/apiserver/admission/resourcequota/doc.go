// Package resourcequota is the ResourceQuota admission plugin, the last
// validating plugin of the chain. On a create (or an update that grows
// usage) of an object in a namespace with quotas, it computes what the
// write adds (package quota, shared with the quota controller), refuses it
// with 403 "exceeded quota: ..." when a matching quota would go over its
// status.hard, and otherwise charges the new usage to each quota's
// status.used with a compare-and-swap before the object is stored: a lost
// race re-reads the quota and checks again, so concurrent writes never
// exceed a quota. A dry run checks without writing. Quotas whose
// status.used the controller has not filled in yet refuse the write
// ("status unknown for quota"), as upstream does. An object refused after
// the charge (by its own store) leaves the quota overcharged until the
// controller's next recount.
package resourcequota
