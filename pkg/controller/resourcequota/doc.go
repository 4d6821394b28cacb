// Package resourcequota is the resourcequota loop: it keeps each
// ResourceQuota's status right. status.hard follows spec.hard, and
// status.used is recounted from the informers' view of the namespace,
// with the usage rules the ResourceQuota admission plugin charges by
// (package quota). A quota is recounted when it is created or its spec
// changes, when a tracked object is deleted or stops using resources (a
// pod finishing), and every --resource-quota-sync-period. Creates are not
// recounted: admission charged them already, and an informer behind the
// plugin's charge would undercount. Resources the loop does not watch
// start at zero and keep the usage admission records.
package resourcequota
