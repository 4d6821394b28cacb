// Package cronspec parses the cron schedules of CronJobs for both the API
// server's validation and the cronjob controller, through robfig/cron (the
// parser upstream uses for both), so the API accepts exactly the schedules
// the controller can run. It adds only a recover: the library panics on a
// few malformed inputs, and one bad schedule must not take a process down.
package cronspec
