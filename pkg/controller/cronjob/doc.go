// Package cronjob is the "cronjob" control loop: it creates one Job per
// cron slot of a CronJob (batch/v1, which also serves batch/v1beta1),
// named after the slot so no slot runs twice, honouring concurrencyPolicy,
// startingDeadlineSeconds, suspend and the history limits, and keeps
// status.active, lastScheduleTime and lastSuccessfulTime current.
package cronjob
