// Package workload drives the chaos workload through the staging client:
// clients that create, get, list, replace with a resourceVersion
// precondition and delete a few ConfigMaps, and watchers that list, watch,
// resume and relist, each recording into a check.History.
package workload
