// Package config is the scheduler's versioned configuration file
// (scheduler.config.platform.io/v1, kind SchedulerConfiguration): its types,
// strict loading, defaults and validation, and the merge of a profile's
// plugin sets with the default ones.
package config
