package v1beta1

import (
	"encoding/json"
	"strings"
	"testing"

	"platform.io/client/api/apitest"
)

func TestTags(t *testing.T) {
	apitest.CheckTags(t, CronJob{}, CronJobList{}, JobTemplate{})
}

const withZeroLimit = `{
  "apiVersion": "batch/v1beta1",
  "kind": "CronJob",
  "metadata": {"name": "cleanup", "namespace": "default", "resourceVersion": "12"},
  "spec": {
    "schedule": "*/15 * * * *",
    "startingDeadlineSeconds": 60,
    "concurrencyPolicy": "Replace",
    "suspend": true,
    "jobTemplate": {
      "spec": {
        "completions": 1,
        "template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "cleanup", "image": "busybox:1.36", "command": ["sh", "-c", "rm -rf /scratch/*"]}]}}
      }
    },
    "successfulJobsHistoryLimit": 0,
    "failedJobsHistoryLimit": 0
  },
  "status": {"lastScheduleTime": "2024-05-01T10:15:00Z"}
}`

const withoutLimits = `{
  "apiVersion": "batch/v1beta1",
  "kind": "CronJob",
  "metadata": {"name": "hello"},
  "spec": {
    "schedule": "@hourly",
    "timeZone": "Etc/UTC",
    "jobTemplate": {"spec": {"template": {"spec": {"restartPolicy": "OnFailure", "containers": [{"name": "hello", "image": "busybox:1.36"}]}}}}
  }
}`

func TestExplicitZeroHistoryLimit(t *testing.T) {
	c := apitest.RoundTripJSON[CronJob](t, withZeroLimit)
	if c.Spec.SuccessfulJobsHistoryLimit == nil || *c.Spec.SuccessfulJobsHistoryLimit != 0 {
		t.Errorf("successfulJobsHistoryLimit = %v, want pointer to 0", c.Spec.SuccessfulJobsHistoryLimit)
	}
	if c.Spec.FailedJobsHistoryLimit == nil || *c.Spec.FailedJobsHistoryLimit != 0 {
		t.Errorf("failedJobsHistoryLimit = %v, want pointer to 0", c.Spec.FailedJobsHistoryLimit)
	}
	if c.Spec.ConcurrencyPolicy != ReplaceConcurrent || c.Spec.Suspend == nil || !*c.Spec.Suspend {
		t.Errorf("spec = %+v", c.Spec)
	}
	if *c.Spec.JobTemplate.Spec.Completions != 1 {
		t.Errorf("jobTemplate.spec = %+v", c.Spec.JobTemplate.Spec)
	}
	out, _ := json.Marshal(c)
	if !strings.Contains(string(out), `"successfulJobsHistoryLimit":0`) {
		t.Errorf("explicit 0 not re-encoded: %s", out)
	}
}

func TestUnsetHistoryLimit(t *testing.T) {
	c := apitest.RoundTripJSON[CronJob](t, withoutLimits)
	if c.Spec.SuccessfulJobsHistoryLimit != nil || c.Spec.FailedJobsHistoryLimit != nil {
		t.Errorf("limits = %v, %v, want nil", c.Spec.SuccessfulJobsHistoryLimit, c.Spec.FailedJobsHistoryLimit)
	}
	if c.Spec.TimeZone == nil || *c.Spec.TimeZone != "Etc/UTC" || c.Spec.StartingDeadlineSeconds != nil {
		t.Errorf("spec = %+v", c.Spec)
	}
	out, _ := json.Marshal(c)
	if strings.Contains(string(out), "HistoryLimit") {
		t.Errorf("unset limits encoded: %s", out)
	}
}

func TestListRoundTrip(t *testing.T) {
	l := apitest.RoundTripJSON[CronJobList](t, `{"apiVersion":"batch/v1beta1","kind":"CronJobList","metadata":{"resourceVersion":"40"},"items":[`+withZeroLimit+`,`+withoutLimits+`]}`)
	if len(l.Items) != 2 || l.ResourceVersion != "40" {
		t.Errorf("list = %+v", l)
	}
}

func TestRegister(t *testing.T) {
	if SchemeGroupVersion.String() != "batch/v1beta1" {
		t.Errorf("group version %s", SchemeGroupVersion)
	}
}
