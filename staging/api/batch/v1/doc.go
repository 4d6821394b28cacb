// Package v1 defines the batch/v1 kinds: Job, which runs pods until a set
// number of them succeed, and CronJob, which creates Jobs on a cron schedule.
// Field names, JSON tags and protobuf numbers follow the upstream batch/v1
// wire format so existing clients decode these objects unchanged.
package v1

//go:generate go run ../../../hack/protogen
