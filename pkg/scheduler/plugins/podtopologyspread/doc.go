// Package podtopologyspread is the PodTopologySpread scheduler plugin: it
// filters nodes by a pod's DoNotSchedule topology spread constraints and
// scores them by its ScheduleAnyway ones, or by the configured default
// constraints for a pod that has none. Unlike upstream, whose default
// constraints select the pods of the owning Service, ReplicaSet or
// StatefulSet by its selector, a default constraint here counts the pods
// with the same controller ownerReference (UID) as the pod.
package podtopologyspread
