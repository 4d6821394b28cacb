// Package batchvalidation holds what the batch registry packages share: the
// JobSpec defaults and rules used by both Jobs and CronJob job templates,
// and a label selector check. Cron schedules are parsed by pkg/cronspec,
// shared with the cronjob controller.
package batchvalidation
