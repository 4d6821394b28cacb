// Package batchvalidation holds what the batch registry packages share: the
// JobSpec defaults and rules used by both Jobs and CronJob job templates, a
// label selector check, and the cron schedule parser (ParseSchedule) that
// validation and the cronjob controller both rely on.
package batchvalidation
