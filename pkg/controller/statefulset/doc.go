// Package statefulset reconciles StatefulSets: pods with stable names
// <set>-<ordinal>, created in order and removed in reverse order
// (OrderedReady) or all at once (Parallel), and rolled to a new template
// from the highest ordinal down to the partition, one pod at a time, with
// every template kept as a ControllerRevision. volumeClaimTemplates are not
// acted on: the API server serves no PersistentVolumeClaims.
package statefulset
