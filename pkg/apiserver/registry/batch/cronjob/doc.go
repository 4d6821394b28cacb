// Package cronjob holds the registry rows of CronJobs: batch/v1, the storage
// version, and batch/v1beta1, stored as batch/v1. Both share one set of
// defaults and rules, including the schedule and time zone checks.
package cronjob
