package cronjob

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	batchv1 "platform.io/client/api/batch/v1"
	batchv1beta1 "platform.io/client/api/batch/v1beta1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/registry/batch/batchvalidation"
	"platform.io/platform/pkg/apiserver/validation/field"
	"platform.io/platform/pkg/cronspec"
)

// MaxNameLength keeps the names of the Jobs a CronJob creates (its name, a
// dash and a 10-digit timestamp) within 63 characters.
const MaxNameLength = 52

// History limits used when unset.
const (
	DefaultSuccessfulJobsHistoryLimit = 3
	DefaultFailedJobsHistoryLimit     = 1
)

// Resources returns the cronjobs rows: batch/v1, the storage version, and
// batch/v1beta1, which is stored as batch/v1.
func Resources() (v1, v1beta1 *registry.Resource) {
	v1 = &registry.Resource{
		Group: batchv1.GroupName, Version: "v1", Name: "cronjobs", Singular: "cronjob", Kind: "CronJob",
		ShortNames: []string{"cj"},
		Categories: []string{"all"},
		Namespaced: true,
		New:        func() meta.Object { return &batchv1.CronJob{} },
		HasStatus:  true,
		Strategy: registry.Typed[batchv1.CronJob]{
			DefaultFunc:        func(c *batchv1.CronJob) { defaultSpec(&c.Spec) },
			ValidateFunc:       func(c *batchv1.CronJob) field.ErrorList { return validate(c.Name, &c.Spec) },
			ValidateUpdateFunc: func(c, old *batchv1.CronJob) field.ErrorList { return validateSpec(&c.Spec, &old.Spec) },
		},
		Table: tableColumns,
	}
	v1beta1 = &registry.Resource{
		Group: batchv1beta1.GroupName, Version: "v1beta1", Name: "cronjobs", Singular: "cronjob", Kind: "CronJob",
		ShortNames: []string{"cj"},
		Categories: []string{"all"},
		Namespaced: true,
		New:        func() meta.Object { return &batchv1beta1.CronJob{} },
		HasStatus:  true,
		Storage:    v1,
		Strategy: registry.Typed[batchv1beta1.CronJob]{
			DefaultFunc: func(c *batchv1beta1.CronJob) {
				s := toV1(&c.Spec)
				defaultSpec(&s)
				c.Spec = fromV1(&s)
			},
			ValidateFunc: func(c *batchv1beta1.CronJob) field.ErrorList {
				s := toV1(&c.Spec)
				return validate(c.Name, &s)
			},
			ValidateUpdateFunc: func(c, old *batchv1beta1.CronJob) field.ErrorList {
				s, o := toV1(&c.Spec), toV1(&old.Spec)
				return validateSpec(&s, &o)
			},
		},
		Table: tableColumns,
	}
	return v1, v1beta1
}

// toV1 and fromV1 move a spec between the versions, whose fields are the same.
func toV1(s *batchv1beta1.CronJobSpec) batchv1.CronJobSpec {
	return batchv1.CronJobSpec{
		Schedule: s.Schedule, TimeZone: s.TimeZone, StartingDeadlineSeconds: s.StartingDeadlineSeconds,
		ConcurrencyPolicy: batchv1.ConcurrencyPolicy(s.ConcurrencyPolicy), Suspend: s.Suspend,
		JobTemplate:                batchv1.JobTemplateSpec(s.JobTemplate),
		SuccessfulJobsHistoryLimit: s.SuccessfulJobsHistoryLimit, FailedJobsHistoryLimit: s.FailedJobsHistoryLimit,
	}
}

func fromV1(s *batchv1.CronJobSpec) batchv1beta1.CronJobSpec {
	return batchv1beta1.CronJobSpec{
		Schedule: s.Schedule, TimeZone: s.TimeZone, StartingDeadlineSeconds: s.StartingDeadlineSeconds,
		ConcurrencyPolicy: batchv1beta1.ConcurrencyPolicy(s.ConcurrencyPolicy), Suspend: s.Suspend,
		JobTemplate:                batchv1beta1.JobTemplateSpec(s.JobTemplate),
		SuccessfulJobsHistoryLimit: s.SuccessfulJobsHistoryLimit, FailedJobsHistoryLimit: s.FailedJobsHistoryLimit,
	}
}

func defaultSpec(s *batchv1.CronJobSpec) {
	if s.ConcurrencyPolicy == "" {
		s.ConcurrencyPolicy = batchv1.AllowConcurrent
	}
	if s.Suspend == nil {
		s.Suspend = ptr(false)
	}
	if s.SuccessfulJobsHistoryLimit == nil {
		s.SuccessfulJobsHistoryLimit = ptr[int32](DefaultSuccessfulJobsHistoryLimit)
	}
	if s.FailedJobsHistoryLimit == nil {
		s.FailedJobsHistoryLimit = ptr[int32](DefaultFailedJobsHistoryLimit)
	}
	batchvalidation.DefaultJobTemplateSpec(&s.JobTemplate.Spec)
}

func ptr[T any](v T) *T { return &v }

// validate checks a new CronJob; the name limit applies on create only, so
// that older, longer-named objects stay updatable.
func validate(name string, s *batchv1.CronJobSpec) field.ErrorList {
	errs := validateSpec(s, nil)
	if len(name) > MaxNameLength {
		errs = append(errs, field.Invalid(field.NewPath("metadata", "name"), name,
			fmt.Sprintf("must be no more than %d characters", MaxNameLength)))
	}
	return errs
}

// validateSpec checks a spec; old is nil on create.
func validateSpec(s, old *batchv1.CronJobSpec) field.ErrorList {
	p := field.NewPath("spec")
	var errs field.ErrorList
	if s.Schedule == "" {
		errs = append(errs, field.Required(p.Child("schedule"), ""))
	} else {
		// A TZ prefix is tolerated only on objects that already had one.
		allowTZ := old != nil && strings.Contains(old.Schedule, "TZ")
		errs = append(errs, validateSchedule(s.Schedule, allowTZ, s.TimeZone != nil, p.Child("schedule"))...)
	}
	if s.StartingDeadlineSeconds != nil {
		errs = append(errs, batchvalidation.NonNegative(*s.StartingDeadlineSeconds, p.Child("startingDeadlineSeconds"))...)
	}
	if old == nil || !equalStrings(old.TimeZone, s.TimeZone) {
		errs = append(errs, validateTimeZone(s.TimeZone, p.Child("timeZone"))...)
	}
	switch s.ConcurrencyPolicy {
	case batchv1.AllowConcurrent, batchv1.ForbidConcurrent, batchv1.ReplaceConcurrent:
	case "":
		errs = append(errs, field.Required(p.Child("concurrencyPolicy"), ""))
	default:
		errs = append(errs, field.NotSupported(p.Child("concurrencyPolicy"), s.ConcurrencyPolicy,
			[]batchv1.ConcurrencyPolicy{batchv1.AllowConcurrent, batchv1.ForbidConcurrent, batchv1.ReplaceConcurrent}))
	}
	errs = append(errs, batchvalidation.ValidateJobTemplateSpec(&s.JobTemplate, p.Child("jobTemplate"))...)
	if s.SuccessfulJobsHistoryLimit != nil {
		errs = append(errs, batchvalidation.NonNegative(int64(*s.SuccessfulJobsHistoryLimit), p.Child("successfulJobsHistoryLimit"))...)
	}
	if s.FailedJobsHistoryLimit != nil {
		errs = append(errs, batchvalidation.NonNegative(int64(*s.FailedJobsHistoryLimit), p.Child("failedJobsHistoryLimit"))...)
	}
	return errs
}

func equalStrings(a, b *string) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

func validateSchedule(schedule string, allowTZ, hasTimeZone bool, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if _, err := cronspec.Parse(schedule); err != nil {
		errs = append(errs, field.Invalid(p, schedule, err.Error()))
	}
	if strings.Contains(schedule, "TZ") {
		switch {
		case !allowTZ:
			errs = append(errs, field.Invalid(p, schedule, "cannot use TZ or CRON_TZ in schedule, use timeZone field instead"))
		case hasTimeZone:
			errs = append(errs, field.Invalid(p, schedule, "cannot use both timeZone field and TZ or CRON_TZ in schedule"))
		}
	}
	return errs
}

// zonePartRe is what one slash-separated part of an IANA zone name may hold
// (digits and '+' are tolerated for legacy names such as Etc/GMT+5).
var zonePartRe = regexp.MustCompile(`^[A-Za-z.\-_0-9+]{1,14}$`)

func validateTimeZone(tz *string, p *field.Path) field.ErrorList {
	if tz == nil {
		return nil
	}
	if *tz == "" {
		return field.ErrorList{field.Invalid(p, *tz, "timeZone must be nil or non-empty string")}
	}
	for _, part := range strings.Split(*tz, "/") {
		if part == "." || part == ".." || strings.HasPrefix(part, "-") || !zonePartRe.MatchString(part) {
			return field.ErrorList{field.Invalid(p, *tz, "unknown time zone "+*tz)}
		}
	}
	if strings.EqualFold(*tz, "Local") {
		return field.ErrorList{field.Invalid(p, *tz, "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones")}
	}
	if _, err := time.LoadLocation(*tz); err != nil {
		return field.ErrorList{field.Invalid(p, *tz, err.Error())}
	}
	return nil
}
