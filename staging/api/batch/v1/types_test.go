package v1

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"platform.io/client/api/apitest"
)

func TestTags(t *testing.T) {
	apitest.CheckTags(t, Job{}, JobList{}, CronJob{}, CronJobList{})
}

func TestPatchTags(t *testing.T) {
	f, _ := reflect.TypeOf(JobStatus{}).FieldByName("Conditions")
	if f.Tag.Get("patchStrategy") != "merge" || f.Tag.Get("patchMergeKey") != "type" {
		t.Errorf("JobStatus.Conditions tags = %q", f.Tag)
	}
	f, _ = reflect.TypeOf(CronJobStatus{}).FieldByName("Active")
	if _, ok := f.Tag.Lookup("patchStrategy"); ok {
		t.Errorf("CronJobStatus.Active must be replaced as a whole, got %q", f.Tag)
	}
}

const indexedJob = `{
  "apiVersion": "batch/v1",
  "kind": "Job",
  "metadata": {"name": "render", "namespace": "media", "uid": "5d1c6f2e-0b7a-4d55-9a3e-1f0c2b8e9a10", "creationTimestamp": "2024-05-01T10:00:00Z"},
  "spec": {
    "parallelism": 4,
    "completions": 10,
    "activeDeadlineSeconds": 3600,
    "backoffLimitPerIndex": 2,
    "maxFailedIndexes": 3,
    "podFailurePolicy": {"rules": [
      {"action": "FailIndex", "onExitCodes": {"containerName": "render", "operator": "In", "values": [42]}},
      {"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget", "status": "True"}]}
    ]},
    "successPolicy": {"rules": [{"succeededIndexes": "0-2", "succeededCount": 2}]},
    "selector": {"matchLabels": {"batch.kubernetes.io/controller-uid": "5d1c6f2e-0b7a-4d55-9a3e-1f0c2b8e9a10"}},
    "manualSelector": false,
    "template": {
      "metadata": {"labels": {"app": "render"}},
      "spec": {"restartPolicy": "Never", "containers": [{"name": "render", "image": "registry.example/render:1.4"}]}
    },
    "ttlSecondsAfterFinished": 0,
    "completionMode": "Indexed",
    "suspend": false,
    "podReplacementPolicy": "Failed",
    "managedBy": "example.com/queue"
  },
  "status": {
    "conditions": [
      {"type": "FailureTarget", "status": "True", "lastProbeTime": "2024-05-01T10:30:00Z", "lastTransitionTime": "2024-05-01T10:30:00Z", "reason": "MaxFailedIndexesExceeded", "message": "4 indexes failed"},
      {"type": "Failed", "status": "True", "lastProbeTime": null, "lastTransitionTime": "2024-05-01T10:30:05Z", "reason": "MaxFailedIndexesExceeded"}
    ],
    "startTime": "2024-05-01T10:00:01Z",
    "active": 0,
    "succeeded": 5,
    "failed": 9,
    "terminating": 0,
    "completedIndexes": "0-4",
    "failedIndexes": "5,7-9",
    "uncountedTerminatedPods": {"succeeded": ["a1"], "failed": ["b2", "c3"]},
    "ready": 0
  }
}`

func TestJobRoundTrip(t *testing.T) {
	j := apitest.RoundTripJSON[Job](t, indexedJob)
	if j.Spec.CompletionMode == nil || *j.Spec.CompletionMode != IndexedCompletion {
		t.Errorf("completionMode = %v", j.Spec.CompletionMode)
	}
	if j.Spec.TTLSecondsAfterFinished == nil || *j.Spec.TTLSecondsAfterFinished != 0 {
		t.Errorf("explicit ttlSecondsAfterFinished 0 lost: %v", j.Spec.TTLSecondsAfterFinished)
	}
	if j.Spec.PodReplacementPolicy == nil || *j.Spec.PodReplacementPolicy != Failed {
		t.Errorf("podReplacementPolicy = %v", j.Spec.PodReplacementPolicy)
	}
	rules := j.Spec.PodFailurePolicy.Rules
	if len(rules) != 2 || rules[0].Action != PodFailurePolicyActionFailIndex || rules[0].OnExitCodes.Values[0] != 42 ||
		rules[1].OnPodConditions[0].Status != "True" {
		t.Errorf("podFailurePolicy = %+v", j.Spec.PodFailurePolicy)
	}
	if j.Spec.Template.Labels["app"] != "render" {
		t.Errorf("template labels = %v", j.Spec.Template.Labels)
	}
	st := j.Status
	if len(st.Conditions) != 2 || st.Conditions[1].Type != JobFailed || st.Conditions[0].Type != JobFailureTarget {
		t.Errorf("conditions = %+v", st.Conditions)
	}
	if !st.Conditions[1].LastProbeTime.IsZero() {
		t.Errorf("null lastProbeTime decoded as %v", st.Conditions[1].LastProbeTime)
	}
	if st.Terminating == nil || *st.Terminating != 0 || st.Ready == nil || st.FailedIndexes == nil || *st.FailedIndexes != "5,7-9" {
		t.Errorf("pointer counters lost: terminating=%v ready=%v failedIndexes=%v", st.Terminating, st.Ready, st.FailedIndexes)
	}
	if got := st.UncountedTerminatedPods.Failed; len(got) != 2 || got[1] != "c3" {
		t.Errorf("uncountedTerminatedPods.failed = %v", got)
	}
}

func TestJobStatusOmitsZeroCounters(t *testing.T) {
	out, err := json.Marshal(JobStatus{Succeeded: 1})
	if err != nil {
		t.Fatal(err)
	}
	if s := string(out); s != `{"succeeded":1}` {
		t.Errorf("got %s", s)
	}
}

const nightlyCronJob = `{
  "apiVersion": "batch/v1",
  "kind": "CronJob",
  "metadata": {"name": "nightly-report", "namespace": "ops"},
  "spec": {
    "schedule": "30 2 * * *",
    "timeZone": "Europe/Berlin",
    "startingDeadlineSeconds": 300,
    "concurrencyPolicy": "Forbid",
    "suspend": false,
    "jobTemplate": {
      "metadata": {"labels": {"report": "nightly"}},
      "spec": {
        "backoffLimit": 1,
        "template": {"spec": {"restartPolicy": "OnFailure", "containers": [{"name": "report", "image": "registry.example/report:2"}]}}
      }
    },
    "successfulJobsHistoryLimit": 0,
    "failedJobsHistoryLimit": 5
  },
  "status": {
    "active": [{"kind": "Job", "namespace": "ops", "name": "nightly-report-28591590", "uid": "0f2a", "apiVersion": "batch/v1", "resourceVersion": "881"}],
    "lastScheduleTime": "2024-05-01T00:30:00Z",
    "lastSuccessfulTime": "2024-04-30T00:31:12Z"
  }
}`

func TestCronJobRoundTrip(t *testing.T) {
	c := apitest.RoundTripJSON[CronJob](t, nightlyCronJob)
	if c.Spec.ConcurrencyPolicy != ForbidConcurrent || *c.Spec.TimeZone != "Europe/Berlin" {
		t.Errorf("spec = %+v", c.Spec)
	}
	if c.Spec.SuccessfulJobsHistoryLimit == nil || *c.Spec.SuccessfulJobsHistoryLimit != 0 {
		t.Errorf("explicit successfulJobsHistoryLimit 0 lost: %v", c.Spec.SuccessfulJobsHistoryLimit)
	}
	if c.Spec.JobTemplate.Labels["report"] != "nightly" || *c.Spec.JobTemplate.Spec.BackoffLimit != 1 {
		t.Errorf("jobTemplate = %+v", c.Spec.JobTemplate)
	}
	if len(c.Status.Active) != 1 || c.Status.Active[0].Name != "nightly-report-28591590" {
		t.Errorf("active = %+v", c.Status.Active)
	}
	out, _ := json.Marshal(c)
	if !strings.Contains(string(out), `"successfulJobsHistoryLimit":0`) {
		t.Errorf("explicit 0 not re-encoded: %s", out)
	}
}

func TestListRoundTrip(t *testing.T) {
	l := apitest.RoundTripJSON[JobList](t, `{"apiVersion":"batch/v1","kind":"JobList","metadata":{"resourceVersion":"991","continue":"tok"},"items":[`+indexedJob+`]}`)
	if len(l.Items) != 1 || l.Continue != "tok" {
		t.Errorf("list = %+v", l.ListMeta)
	}
	cl := apitest.RoundTripJSON[CronJobList](t, `{"apiVersion":"batch/v1","kind":"CronJobList","metadata":{},"items":[`+nightlyCronJob+`]}`)
	if len(cl.Items) != 1 {
		t.Errorf("items = %d", len(cl.Items))
	}
}

func TestRegister(t *testing.T) {
	if SchemeGroupVersion.String() != "batch/v1" || Resource("jobs").String() != "jobs.batch" {
		t.Errorf("group version %s", SchemeGroupVersion)
	}
}
