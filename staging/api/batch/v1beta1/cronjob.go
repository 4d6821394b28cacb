package v1beta1

import (
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

// CronJob creates Jobs from a template on a cron schedule (beta form).
type CronJob struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec holds the schedule and the job template.
	Spec CronJobSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	// Status is what the cronjob controller last observed.
	Status CronJobStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// CronJobList is a page of CronJobs.
type CronJobList struct {
	meta.TypeMeta `json:",inline"`
	meta.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	Items []CronJob `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// CronJobSpec says when to run and what Job to create each time.
type CronJobSpec struct {
	// Schedule is a cron expression such as "0 3 * * *".
	Schedule string `json:"schedule" protobuf:"bytes,1,opt,name=schedule"`
	// TimeZone is an IANA zone name for Schedule; nil means the controller's local zone.
	TimeZone *string `json:"timeZone,omitempty" protobuf:"bytes,8,opt,name=timeZone"`
	// StartingDeadlineSeconds is how late a missed run may still start.
	StartingDeadlineSeconds *int64 `json:"startingDeadlineSeconds,omitempty" protobuf:"varint,2,opt,name=startingDeadlineSeconds"`
	// ConcurrencyPolicy decides what happens when a run is due while another is still active.
	ConcurrencyPolicy ConcurrencyPolicy `json:"concurrencyPolicy,omitempty" protobuf:"bytes,3,opt,name=concurrencyPolicy,casttype=ConcurrencyPolicy"`
	// Suspend pauses future runs without touching jobs already started.
	Suspend *bool `json:"suspend,omitempty" protobuf:"varint,4,opt,name=suspend"`
	// JobTemplate is the Job created for each run.
	JobTemplate JobTemplateSpec `json:"jobTemplate" protobuf:"bytes,5,opt,name=jobTemplate"`
	// SuccessfulJobsHistoryLimit is how many successful jobs to keep; nil (default 3) differs from an explicit 0.
	SuccessfulJobsHistoryLimit *int32 `json:"successfulJobsHistoryLimit,omitempty" protobuf:"varint,6,opt,name=successfulJobsHistoryLimit"`
	// FailedJobsHistoryLimit is how many failed jobs to keep; nil (default 1) differs from an explicit 0.
	FailedJobsHistoryLimit *int32 `json:"failedJobsHistoryLimit,omitempty" protobuf:"varint,7,opt,name=failedJobsHistoryLimit"`
}

// CronJobStatus is the cronjob controller's record of runs.
type CronJobStatus struct {
	// Active references the jobs currently running; it is replaced as a whole on update.
	Active []corev1.ObjectReference `json:"active,omitempty" protobuf:"bytes,1,rep,name=active"`
	// LastScheduleTime is when a job was last created on schedule.
	LastScheduleTime *meta.Time `json:"lastScheduleTime,omitempty" protobuf:"bytes,4,opt,name=lastScheduleTime"`
	// LastSuccessfulTime is when a job last finished successfully.
	LastSuccessfulTime *meta.Time `json:"lastSuccessfulTime,omitempty" protobuf:"bytes,5,opt,name=lastSuccessfulTime"`
}

// ConcurrencyPolicy decides how overlapping runs of a CronJob are handled.
type ConcurrencyPolicy string

// The concurrency policies.
const (
	// AllowConcurrent lets runs overlap; it is the default.
	AllowConcurrent ConcurrencyPolicy = "Allow"
	// ForbidConcurrent skips a run while the previous one is still active.
	ForbidConcurrent ConcurrencyPolicy = "Forbid"
	// ReplaceConcurrent stops the active run and starts the new one.
	ReplaceConcurrent ConcurrencyPolicy = "Replace"
)
