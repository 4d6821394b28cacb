// Package statefulset reconciles StatefulSets: stable pods <set>-<ordinal>
// made in order and removed in reverse (OrderedReady) or all at once
// (Parallel), rolled from the highest ordinal down to the partition one at
// a time (or on delete), every template kept as a ControllerRevision.
// volumeClaimTemplates are not acted on: no PersistentVolumeClaims are served.
package statefulset
