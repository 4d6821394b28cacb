// Package statefulset reconciles StatefulSets: pods with stable names
// <set>-<ordinal>, created in order and removed in reverse order, one at a
// time and only while the others are healthy (OrderedReady), or all at
// once (Parallel); a new template rolls from the highest ordinal down to
// the partition, one pod at a time (rollingUpdate.maxUnavailable, alpha
// upstream, is not honoured), or waits for pods to be deleted (OnDelete);
// every template is kept as a ControllerRevision. volumeClaimTemplates and
// persistentVolumeClaimRetentionPolicy are not acted on: the API server
// serves no PersistentVolumeClaims.
package statefulset
