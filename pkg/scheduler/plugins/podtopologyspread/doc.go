// Package podtopologyspread is the PodTopologySpread scheduler plugin: it
// filters nodes by a pod's DoNotSchedule topology spread constraints and
// scores them by its ScheduleAnyway ones, or by the configured default
// constraints for a pod that has none, counting matching pods per domain.
package podtopologyspread
