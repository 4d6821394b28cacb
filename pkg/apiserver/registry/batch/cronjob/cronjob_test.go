package cronjob

import (
	"strings"
	"testing"

	batchv1 "platform.io/client/api/batch/v1"
	batchv1beta1 "platform.io/client/api/batch/v1beta1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/validation/field"
)

func rawCronJob() *batchv1.CronJob {
	return &batchv1.CronJob{
		ObjectMeta: meta.ObjectMeta{Name: "cleanup", Namespace: "default"},
		Spec: batchv1.CronJobSpec{
			Schedule: "*/15 * * * *",
			JobTemplate: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{Template: corev1.PodTemplateSpec{
				Spec: corev1.PodSpec{
					RestartPolicy: corev1.RestartPolicyOnFailure,
					Containers:    []corev1.Container{{Name: "c", Image: "busybox"}},
				},
			}}},
		},
	}
}

func findError(errs field.ErrorList, path string, typ field.Type) bool {
	for _, e := range errs {
		if e.Field == path && e.Type == typ {
			return true
		}
	}
	return false
}

func TestResources(t *testing.T) {
	v1, v1beta1 := Resources()
	for _, tc := range []struct {
		r       interface{ GroupVersion() meta.GroupVersion }
		version string
	}{{v1, "batch/v1"}, {v1beta1, "batch/v1beta1"}} {
		if tc.r.GroupVersion().String() != tc.version {
			t.Errorf("group version %s, want %s", tc.r.GroupVersion(), tc.version)
		}
	}
	for _, r := range [...]struct {
		name, singular, kind string
		namespaced, status   bool
		short, categories    []string
	}{
		{v1.Name, v1.Singular, v1.Kind, v1.Namespaced, v1.HasStatus, v1.ShortNames, v1.Categories},
		{v1beta1.Name, v1beta1.Singular, v1beta1.Kind, v1beta1.Namespaced, v1beta1.HasStatus, v1beta1.ShortNames, v1beta1.Categories},
	} {
		if r.name != "cronjobs" || r.singular != "cronjob" || r.kind != "CronJob" || !r.namespaced || !r.status ||
			len(r.short) != 1 || r.short[0] != "cj" || len(r.categories) != 1 || r.categories[0] != "all" {
			t.Errorf("row = %+v", r)
		}
	}
	if _, ok := v1.New().(*batchv1.CronJob); !ok {
		t.Errorf("v1 New() = %T", v1.New())
	}
	if _, ok := v1beta1.New().(*batchv1beta1.CronJob); !ok {
		t.Errorf("v1beta1 New() = %T", v1beta1.New())
	}
	if v1.Storage != nil || v1beta1.Storage != v1 {
		t.Errorf("storage: v1 %p, v1beta1 %p, want nil and %p", v1.Storage, v1beta1.Storage, v1)
	}
}

func TestDefault(t *testing.T) {
	v1, v1beta1 := Resources()
	c := rawCronJob()
	v1.Strategy.Default(c)
	s := c.Spec
	if s.ConcurrencyPolicy != batchv1.AllowConcurrent || *s.Suspend || *s.SuccessfulJobsHistoryLimit != 3 || *s.FailedJobsHistoryLimit != 1 {
		t.Errorf("defaults = %+v", s)
	}
	if s.JobTemplate.Spec.Template.Spec.DNSPolicy != corev1.DNSClusterFirst {
		t.Error("job template pod spec not defaulted")
	}
	if s.JobTemplate.Spec.Completions != nil || s.JobTemplate.Spec.BackoffLimit != nil {
		t.Errorf("job-level defaults applied to the template: %+v", s.JobTemplate.Spec)
	}

	explicit := rawCronJob()
	explicit.Spec.ConcurrencyPolicy = batchv1.ForbidConcurrent
	explicit.Spec.Suspend = ptr(true)
	explicit.Spec.SuccessfulJobsHistoryLimit, explicit.Spec.FailedJobsHistoryLimit = ptr[int32](0), ptr[int32](0)
	v1.Strategy.Default(explicit)
	if es := explicit.Spec; es.ConcurrencyPolicy != batchv1.ForbidConcurrent || !*es.Suspend ||
		*es.SuccessfulJobsHistoryLimit != 0 || *es.FailedJobsHistoryLimit != 0 {
		t.Errorf("explicit values changed: %+v", es)
	}

	beta := &batchv1beta1.CronJob{Spec: fromV1(&rawCronJob().Spec)}
	beta.Spec.FailedJobsHistoryLimit = ptr[int32](0)
	v1beta1.Strategy.Default(beta)
	if bs := beta.Spec; bs.ConcurrencyPolicy != batchv1beta1.AllowConcurrent || *bs.Suspend ||
		*bs.SuccessfulJobsHistoryLimit != 3 || *bs.FailedJobsHistoryLimit != 0 ||
		bs.JobTemplate.Spec.Template.Spec.DNSPolicy != corev1.DNSClusterFirst {
		t.Errorf("v1beta1 defaults = %+v", bs)
	}
}

func TestValidate(t *testing.T) {
	v1, v1beta1 := Resources()
	base := func() *batchv1.CronJob {
		c := rawCronJob()
		v1.Strategy.Default(c)
		return c
	}
	if errs := v1.Strategy.Validate(t.Context(), base()); len(errs) != 0 {
		t.Fatalf("valid cronjob rejected: %v", errs)
	}
	for _, tc := range []struct {
		name string
		mut  func(*batchv1.CronJob)
		path string
		typ  field.Type
	}{
		{"schedule required", func(c *batchv1.CronJob) { c.Spec.Schedule = "" }, "spec.schedule", field.TypeRequired},
		{"schedule unparsable", func(c *batchv1.CronJob) { c.Spec.Schedule = "61 * * * *" }, "spec.schedule", field.TypeInvalid},
		{"TZ in schedule", func(c *batchv1.CronJob) { c.Spec.Schedule = "TZ=UTC 0 * * * *" }, "spec.schedule", field.TypeInvalid},
		{"unknown time zone", func(c *batchv1.CronJob) { c.Spec.TimeZone = ptr("Mars/Olympus") }, "spec.timeZone", field.TypeInvalid},
		{"empty time zone", func(c *batchv1.CronJob) { c.Spec.TimeZone = ptr("") }, "spec.timeZone", field.TypeInvalid},
		{"Local time zone", func(c *batchv1.CronJob) { c.Spec.TimeZone = ptr("Local") }, "spec.timeZone", field.TypeInvalid},
		{"bad time zone characters", func(c *batchv1.CronJob) { c.Spec.TimeZone = ptr("../etc/passwd") }, "spec.timeZone", field.TypeInvalid},
		{"concurrencyPolicy unknown", func(c *batchv1.CronJob) { c.Spec.ConcurrencyPolicy = "Sometimes" }, "spec.concurrencyPolicy", field.TypeNotSupported},
		{"concurrencyPolicy empty", func(c *batchv1.CronJob) { c.Spec.ConcurrencyPolicy = "" }, "spec.concurrencyPolicy", field.TypeRequired},
		{"negative deadline", func(c *batchv1.CronJob) { c.Spec.StartingDeadlineSeconds = ptr[int64](-1) }, "spec.startingDeadlineSeconds", field.TypeInvalid},
		{"negative successful limit", func(c *batchv1.CronJob) { c.Spec.SuccessfulJobsHistoryLimit = ptr[int32](-1) }, "spec.successfulJobsHistoryLimit", field.TypeInvalid},
		{"negative failed limit", func(c *batchv1.CronJob) { c.Spec.FailedJobsHistoryLimit = ptr[int32](-1) }, "spec.failedJobsHistoryLimit", field.TypeInvalid},
		{"restartPolicy Always", func(c *batchv1.CronJob) {
			c.Spec.JobTemplate.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyAlways
		}, "spec.jobTemplate.spec.template.spec.restartPolicy", field.TypeRequired},
		{"template selector", func(c *batchv1.CronJob) { c.Spec.JobTemplate.Spec.Selector = &meta.LabelSelector{} }, "spec.jobTemplate.spec.selector", field.TypeInvalid},
		{"template manual selector", func(c *batchv1.CronJob) { c.Spec.JobTemplate.Spec.ManualSelector = ptr(true) }, "spec.jobTemplate.spec.manualSelector", field.TypeNotSupported},
		{"template negative parallelism", func(c *batchv1.CronJob) { c.Spec.JobTemplate.Spec.Parallelism = ptr[int32](-2) }, "spec.jobTemplate.spec.parallelism", field.TypeInvalid},
		{"job template label", func(c *batchv1.CronJob) { c.Spec.JobTemplate.Labels = map[string]string{"a": "not valid!"} }, "spec.jobTemplate.metadata.labels[a]", field.TypeInvalid},
		{"name too long", func(c *batchv1.CronJob) { c.Name = strings.Repeat("n", 53) }, "metadata.name", field.TypeInvalid},
	} {
		c := base()
		tc.mut(c)
		if errs := v1.Strategy.Validate(t.Context(), c); !findError(errs, tc.path, tc.typ) {
			t.Errorf("%s: errors %v, want %s at %s", tc.name, errs, tc.typ, tc.path)
		}
		beta := &batchv1beta1.CronJob{ObjectMeta: c.ObjectMeta, Spec: fromV1(&c.Spec)}
		if errs := v1beta1.Strategy.Validate(t.Context(), beta); !findError(errs, tc.path, tc.typ) {
			t.Errorf("v1beta1 %s: errors %v, want %s at %s", tc.name, errs, tc.typ, tc.path)
		}
	}

	ok := base()
	ok.Name = strings.Repeat("n", 52)
	ok.Spec.TimeZone = ptr("Europe/Berlin")
	ok.Spec.Schedule = "@every 1h"
	if errs := v1.Strategy.Validate(t.Context(), ok); len(errs) != 0 {
		t.Errorf("52-character name with a time zone rejected: %v", errs)
	}
}

func TestValidateUpdate(t *testing.T) {
	v1, _ := Resources()
	old := rawCronJob()
	old.Name = strings.Repeat("n", 60) // created before the limit existed
	old.Spec.Schedule = "TZ=UTC 0 * * * *"
	v1.Strategy.Default(old)

	c := rawCronJob()
	c.Name = old.Name
	c.Spec.Schedule = "TZ=UTC 5 * * * *"
	v1.Strategy.Default(c)
	if errs := v1.Strategy.ValidateUpdate(t.Context(), c, old); len(errs) != 0 {
		t.Errorf("update keeping TZ and a long name rejected: %v", errs)
	}
	c.Spec.TimeZone = ptr("UTC")
	if errs := v1.Strategy.ValidateUpdate(t.Context(), c, old); !findError(errs, "spec.schedule", field.TypeInvalid) {
		t.Errorf("TZ together with timeZone accepted: %v", errs)
	}
	plain := rawCronJob()
	v1.Strategy.Default(plain)
	c = rawCronJob()
	c.Spec.Schedule = "TZ=UTC 0 * * * *"
	v1.Strategy.Default(c)
	if errs := v1.Strategy.ValidateUpdate(t.Context(), c, plain); !findError(errs, "spec.schedule", field.TypeInvalid) {
		t.Errorf("TZ added on update accepted: %v", errs)
	}
}
