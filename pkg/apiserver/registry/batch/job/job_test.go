package job

import (
	"math"
	"strings"
	"testing"

	batchv1 "platform.io/client/api/batch/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/validation/field"
)

func ptr[T any](v T) *T { return &v }

// rawJob is a job as a user would send it.
func rawJob() *batchv1.Job {
	return &batchv1.Job{
		ObjectMeta: meta.ObjectMeta{Name: "pi", Namespace: "default", UID: "uid-1"},
		Spec: batchv1.JobSpec{
			Template: corev1.PodTemplateSpec{
				Spec: corev1.PodSpec{
					RestartPolicy: corev1.RestartPolicyNever,
					Containers:    []corev1.Container{{Name: "pi", Image: "perl:5.34"}},
				},
			},
		},
	}
}

// created is rawJob after mut, defaulting and PrepareForCreate.
func created(mut func(*batchv1.Job)) *batchv1.Job {
	j := rawJob()
	if mut != nil {
		mut(j)
	}
	defaultJob(j)
	prepareForCreate(j)
	return j
}

func findError(errs field.ErrorList, path string, typ field.Type) bool {
	for _, e := range errs {
		if e.Field == path && e.Type == typ {
			return true
		}
	}
	return false
}

func TestResource(t *testing.T) {
	r := Resource()
	if r.Group != "batch" || r.Version != "v1" || r.Name != "jobs" || r.Singular != "job" || r.Kind != "Job" {
		t.Errorf("names = %s/%s %s %s %s", r.Group, r.Version, r.Name, r.Singular, r.Kind)
	}
	if !r.Namespaced || !r.HasStatus || r.AllowCreateOnUpdate {
		t.Errorf("namespaced=%v hasStatus=%v allowCreateOnUpdate=%v", r.Namespaced, r.HasStatus, r.AllowCreateOnUpdate)
	}
	if len(r.Categories) != 1 || r.Categories[0] != "all" || len(r.ShortNames) != 0 {
		t.Errorf("categories=%v shortNames=%v", r.Categories, r.ShortNames)
	}
	if _, ok := r.New().(*batchv1.Job); !ok {
		t.Errorf("New() = %T", r.New())
	}
	j := &batchv1.Job{ObjectMeta: meta.ObjectMeta{Name: "a", Namespace: "ns"}, Status: batchv1.JobStatus{Succeeded: 3}}
	f := r.Fields(j)
	if f["status.successful"] != "3" || f["metadata.name"] != "a" || f["metadata.namespace"] != "ns" {
		t.Errorf("fields = %v", f)
	}
}

func TestDefault(t *testing.T) {
	j := rawJob()
	defaultJob(j)
	s := j.Spec
	if *s.Completions != 1 || *s.Parallelism != 1 || *s.BackoffLimit != 6 || *s.CompletionMode != batchv1.NonIndexedCompletion ||
		*s.Suspend || *s.ManualSelector || *s.PodReplacementPolicy != batchv1.TerminatingOrFailed {
		t.Errorf("defaults = %+v", s)
	}
	if s.Template.Spec.DNSPolicy != corev1.DNSClusterFirst {
		t.Errorf("pod template not defaulted: %+v", s.Template.Spec)
	}

	for _, tc := range []struct {
		name  string
		mut   func(*batchv1.JobSpec)
		check func(*batchv1.JobSpec) bool
	}{
		{"parallelism only leaves completions unset", func(s *batchv1.JobSpec) { s.Parallelism = ptr[int32](5) },
			func(s *batchv1.JobSpec) bool { return s.Completions == nil && *s.Parallelism == 5 }},
		{"explicit zero parallelism survives", func(s *batchv1.JobSpec) { s.Parallelism = ptr[int32](0) },
			func(s *batchv1.JobSpec) bool { return s.Completions == nil && *s.Parallelism == 0 }},
		{"completions only defaults parallelism", func(s *batchv1.JobSpec) { s.Completions = ptr[int32](4) },
			func(s *batchv1.JobSpec) bool { return *s.Completions == 4 && *s.Parallelism == 1 }},
		{"explicit zero backoffLimit survives", func(s *batchv1.JobSpec) { s.BackoffLimit = ptr[int32](0) },
			func(s *batchv1.JobSpec) bool { return *s.BackoffLimit == 0 }},
		{"per-index limit lifts backoffLimit", func(s *batchv1.JobSpec) { s.BackoffLimitPerIndex = ptr[int32](1) },
			func(s *batchv1.JobSpec) bool { return *s.BackoffLimit == math.MaxInt32 }},
		{"explicit values survive", func(s *batchv1.JobSpec) {
			s.CompletionMode, s.Suspend, s.ManualSelector = ptr(batchv1.IndexedCompletion), ptr(true), ptr(true)
			s.PodReplacementPolicy = ptr(batchv1.Failed)
		}, func(s *batchv1.JobSpec) bool {
			return *s.CompletionMode == batchv1.IndexedCompletion && *s.Suspend && *s.ManualSelector && *s.PodReplacementPolicy == batchv1.Failed
		}},
		{"failure policy picks Failed and defaults pattern status", func(s *batchv1.JobSpec) {
			s.PodFailurePolicy = &batchv1.PodFailurePolicy{Rules: []batchv1.PodFailurePolicyRule{{
				Action: batchv1.PodFailurePolicyActionIgnore, OnPodConditions: []batchv1.PodFailurePolicyOnPodConditionsPattern{{Type: "DisruptionTarget"}},
			}}}
		}, func(s *batchv1.JobSpec) bool {
			return *s.PodReplacementPolicy == batchv1.Failed && s.PodFailurePolicy.Rules[0].OnPodConditions[0].Status == corev1.ConditionTrue
		}},
	} {
		j := rawJob()
		tc.mut(&j.Spec)
		defaultJob(j)
		if !tc.check(&j.Spec) {
			t.Errorf("%s: spec = %+v", tc.name, j.Spec)
		}
	}
}

func TestDefaultCopiesTemplateLabels(t *testing.T) {
	j := rawJob()
	j.Spec.Template.Labels = map[string]string{"app": "pi"}
	defaultJob(j)
	if j.Labels["app"] != "pi" {
		t.Errorf("labels = %v", j.Labels)
	}
	j = rawJob()
	j.Labels = map[string]string{"own": "x"}
	j.Spec.Template.Labels = map[string]string{"app": "pi"}
	defaultJob(j)
	if len(j.Labels) != 1 || j.Labels["own"] != "x" {
		t.Errorf("own labels replaced: %v", j.Labels)
	}
}

func TestPrepareForCreateGeneratesSelector(t *testing.T) {
	j := created(nil)
	want := map[string]string{
		"controller-uid": "uid-1", "batch.platform.io/controller-uid": "uid-1",
		"job-name": "pi", "batch.platform.io/job-name": "pi",
	}
	for k, v := range want {
		if j.Spec.Template.Labels[k] != v {
			t.Errorf("template label %s = %q, want %q", k, j.Spec.Template.Labels[k], v)
		}
		if j.Labels[k] != v {
			t.Errorf("job label %s = %q, want %q", k, j.Labels[k], v)
		}
	}
	if m := j.Spec.Selector.MatchLabels; len(m) != 1 || m["batch.platform.io/controller-uid"] != "uid-1" {
		t.Errorf("selector = %+v", j.Spec.Selector)
	}
	if errs := validate(j); len(errs) != 0 {
		t.Errorf("generated job invalid: %v", errs)
	}

	manual := created(func(j *batchv1.Job) {
		j.Spec.ManualSelector = ptr(true)
		j.Spec.Selector = &meta.LabelSelector{MatchLabels: map[string]string{"app": "pi"}}
		j.Spec.Template.Labels = map[string]string{"app": "pi"}
	})
	if len(manual.Spec.Template.Labels) != 1 || len(manual.Spec.Selector.MatchLabels) != 1 {
		t.Errorf("manual selector changed: %+v %+v", manual.Spec.Template.Labels, manual.Spec.Selector)
	}
	if errs := validate(manual); len(errs) != 0 {
		t.Errorf("manual job invalid: %v", errs)
	}
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		mut  func(*batchv1.Job) // applied after creation
		path string
		typ  field.Type
	}{
		{"negative parallelism", func(j *batchv1.Job) { j.Spec.Parallelism = ptr[int32](-1) }, "spec.parallelism", field.TypeInvalid},
		{"negative completions", func(j *batchv1.Job) { j.Spec.Completions = ptr[int32](-1) }, "spec.completions", field.TypeInvalid},
		{"negative backoffLimit", func(j *batchv1.Job) { j.Spec.BackoffLimit = ptr[int32](-1) }, "spec.backoffLimit", field.TypeInvalid},
		{"negative activeDeadlineSeconds", func(j *batchv1.Job) { j.Spec.ActiveDeadlineSeconds = ptr[int64](-1) }, "spec.activeDeadlineSeconds", field.TypeInvalid},
		{"negative ttl", func(j *batchv1.Job) { j.Spec.TTLSecondsAfterFinished = ptr[int32](-1) }, "spec.ttlSecondsAfterFinished", field.TypeInvalid},
		{"restartPolicy Always", func(j *batchv1.Job) { j.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyAlways }, "spec.template.spec.restartPolicy", field.TypeRequired},
		{"restartPolicy unknown", func(j *batchv1.Job) { j.Spec.Template.Spec.RestartPolicy = "Sometimes" }, "spec.template.spec.restartPolicy", field.TypeNotSupported},
		{"completionMode unknown", func(j *batchv1.Job) { j.Spec.CompletionMode = ptr[batchv1.CompletionMode]("Sorted") }, "spec.completionMode", field.TypeNotSupported},
		{"Indexed without completions", func(j *batchv1.Job) {
			j.Spec.CompletionMode, j.Spec.Completions = ptr(batchv1.IndexedCompletion), nil
		}, "spec.completions", field.TypeRequired},
		{"Indexed parallelism too high", func(j *batchv1.Job) {
			j.Spec.CompletionMode, j.Spec.Parallelism = ptr(batchv1.IndexedCompletion), ptr[int32](100001)
		}, "spec.parallelism", field.TypeInvalid},
		{"per-index limit needs Indexed", func(j *batchv1.Job) { j.Spec.BackoffLimitPerIndex = ptr[int32](1) }, "spec.backoffLimitPerIndex", field.TypeInvalid},
		{"maxFailedIndexes needs per-index limit", func(j *batchv1.Job) {
			j.Spec.CompletionMode, j.Spec.MaxFailedIndexes = ptr(batchv1.IndexedCompletion), ptr[int32](1)
		}, "spec.backoffLimitPerIndex", field.TypeRequired},
		{"Indexed name too long for hostnames", func(j *batchv1.Job) {
			j.Name = strings.Repeat("a", 62)
			j.Spec.CompletionMode, j.Spec.Completions = ptr(batchv1.IndexedCompletion), ptr[int32](10)
			j.Spec.Template.Labels["job-name"], j.Spec.Template.Labels["batch.platform.io/job-name"] = j.Name, j.Name
		}, "metadata.name", field.TypeInvalid},
		{"podReplacementPolicy unknown", func(j *batchv1.Job) { j.Spec.PodReplacementPolicy = ptr[batchv1.PodReplacementPolicy]("Never") }, "spec.podReplacementPolicy", field.TypeNotSupported},
		{"managedBy not domain-prefixed", func(j *batchv1.Job) { j.Spec.ManagedBy = ptr("kueue") }, "spec.managedBy", field.TypeInvalid},
		{"selector missing with manual selector", func(j *batchv1.Job) {
			j.Spec.ManualSelector, j.Spec.Selector = ptr(true), nil
		}, "spec.selector", field.TypeRequired},
		{"selector not matching template", func(j *batchv1.Job) {
			j.Spec.ManualSelector = ptr(true)
			j.Spec.Selector = &meta.LabelSelector{MatchLabels: map[string]string{"app": "other"}}
		}, "spec.template.metadata.labels", field.TypeInvalid},
		{"bad selector operator", func(j *batchv1.Job) {
			j.Spec.ManualSelector = ptr(true)
			j.Spec.Selector.MatchExpressions = []meta.LabelSelectorRequirement{{Key: "a", Operator: "Near"}}
		}, "spec.selector.matchExpressions[0].operator", field.TypeInvalid},
		{"generated label removed", func(j *batchv1.Job) { delete(j.Spec.Template.Labels, "job-name") }, "spec.template.metadata.labels[job-name]", field.TypeRequired},
		{"generated label changed", func(j *batchv1.Job) { j.Spec.Template.Labels["batch.platform.io/controller-uid"] = "other" }, "spec.template.metadata.labels[batch.platform.io/controller-uid]", field.TypeInvalid},
		{"selector not generated", func(j *batchv1.Job) {
			j.Spec.Selector.MatchLabels = map[string]string{"job-name": "other"}
			j.Spec.Template.Labels["job-name"] = "pi"
		}, "spec.selector", field.TypeInvalid},
		{"bad template label", func(j *batchv1.Job) { j.Spec.Template.Labels["bad key!"] = "x" }, "spec.template.metadata.labels", field.TypeInvalid},
		{"pod template checked", func(j *batchv1.Job) { j.Spec.Template.Spec.Containers = nil }, "spec.template.spec.containers", field.TypeRequired},
	} {
		j := created(nil)
		if errs := validate(j); len(errs) != 0 {
			t.Fatalf("base job invalid: %v", errs)
		}
		tc.mut(j)
		errs := validate(j)
		if !findError(errs, tc.path, tc.typ) {
			t.Errorf("%s: errors %v, want %s at %s", tc.name, errs, tc.typ, tc.path)
		}
	}
}

func TestValidatePolicies(t *testing.T) {
	indexed := func(j *batchv1.Job) {
		j.Spec.CompletionMode, j.Spec.Completions, j.Spec.Parallelism = ptr(batchv1.IndexedCompletion), ptr[int32](5), ptr[int32](5)
	}
	validJob := func() *batchv1.Job {
		return created(func(j *batchv1.Job) {
			indexed(j)
			j.Spec.BackoffLimitPerIndex, j.Spec.MaxFailedIndexes = ptr[int32](1), ptr[int32](2)
			j.Spec.PodFailurePolicy = &batchv1.PodFailurePolicy{Rules: []batchv1.PodFailurePolicyRule{
				{Action: batchv1.PodFailurePolicyActionFailIndex, OnExitCodes: &batchv1.PodFailurePolicyOnExitCodesRequirement{
					ContainerName: ptr("pi"), Operator: batchv1.PodFailurePolicyOnExitCodesOpIn, Values: []int32{1, 42}}},
				{Action: batchv1.PodFailurePolicyActionIgnore, OnPodConditions: []batchv1.PodFailurePolicyOnPodConditionsPattern{{Type: "DisruptionTarget"}}},
			}}
			j.Spec.SuccessPolicy = &batchv1.SuccessPolicy{Rules: []batchv1.SuccessPolicyRule{{SucceededIndexes: ptr("0,2-4"), SucceededCount: ptr[int32](3)}}}
		})
	}
	if errs := validate(validJob()); len(errs) != 0 {
		t.Fatalf("valid policies rejected: %v", errs)
	}
	rule := "spec.podFailurePolicy.rules[0]"
	for _, tc := range []struct {
		name string
		mut  func(*batchv1.Job)
		path string
		typ  field.Type
	}{
		{"unknown action", func(j *batchv1.Job) { j.Spec.PodFailurePolicy.Rules[0].Action = "Retry" }, rule + ".action", field.TypeNotSupported},
		{"In with 0", func(j *batchv1.Job) { j.Spec.PodFailurePolicy.Rules[0].OnExitCodes.Values = []int32{0, 1} }, rule + ".onExitCodes.values[0]", field.TypeInvalid},
		{"unordered codes", func(j *batchv1.Job) { j.Spec.PodFailurePolicy.Rules[0].OnExitCodes.Values = []int32{5, 2} }, rule + ".onExitCodes.values", field.TypeInvalid},
		{"duplicate codes", func(j *batchv1.Job) { j.Spec.PodFailurePolicy.Rules[0].OnExitCodes.Values = []int32{2, 2} }, rule + ".onExitCodes.values[1]", field.TypeDuplicate},
		{"unknown container", func(j *batchv1.Job) { j.Spec.PodFailurePolicy.Rules[0].OnExitCodes.ContainerName = ptr("x") }, rule + ".onExitCodes.containerName", field.TypeInvalid},
		{"no requirement", func(j *batchv1.Job) { j.Spec.PodFailurePolicy.Rules[0].OnExitCodes = nil }, rule, field.TypeInvalid},
		{"failure policy needs Never", func(j *batchv1.Job) { j.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyOnFailure }, "spec.template.spec.restartPolicy", field.TypeInvalid},
		{"failure policy needs Failed replacement", func(j *batchv1.Job) { j.Spec.PodReplacementPolicy = ptr(batchv1.TerminatingOrFailed) }, "spec.podReplacementPolicy", field.TypeNotSupported},
		{"bad condition status", func(j *batchv1.Job) { j.Spec.PodFailurePolicy.Rules[1].OnPodConditions[0].Status = "Maybe" }, "spec.podFailurePolicy.rules[1].onPodConditions[0].status", field.TypeNotSupported},
		{"maxFailedIndexes above completions", func(j *batchv1.Job) { j.Spec.MaxFailedIndexes = ptr[int32](6) }, "spec.maxFailedIndexes", field.TypeInvalid},
		{"success indexes out of range", func(j *batchv1.Job) { j.Spec.SuccessPolicy.Rules[0].SucceededIndexes = ptr("0,7") }, "spec.successPolicy.rules[0].succeededIndexes", field.TypeInvalid},
		{"success indexes not increasing", func(j *batchv1.Job) { j.Spec.SuccessPolicy.Rules[0].SucceededIndexes = ptr("3,1") }, "spec.successPolicy.rules[0].succeededIndexes", field.TypeInvalid},
		{"success count above indexes", func(j *batchv1.Job) { j.Spec.SuccessPolicy.Rules[0].SucceededCount = ptr[int32](5) }, "spec.successPolicy.rules[0].succeededCount", field.TypeInvalid},
		{"empty success rule", func(j *batchv1.Job) { j.Spec.SuccessPolicy.Rules[0] = batchv1.SuccessPolicyRule{} }, "spec.successPolicy.rules[0]", field.TypeRequired},
		{"success policy needs Indexed", func(j *batchv1.Job) {
			j.Spec.CompletionMode, j.Spec.BackoffLimitPerIndex, j.Spec.MaxFailedIndexes = ptr(batchv1.NonIndexedCompletion), nil, nil
		}, "spec.successPolicy", field.TypeInvalid},
	} {
		j := validJob()
		tc.mut(j)
		if errs := validate(j); !findError(errs, tc.path, tc.typ) {
			t.Errorf("%s: errors %v, want %s at %s", tc.name, errs, tc.typ, tc.path)
		}
	}
}

func TestValidateUpdate(t *testing.T) {
	old := created(nil)
	for _, tc := range []struct {
		name string
		mut  func(*batchv1.Job)
		path string // empty: valid
	}{
		{"suspend and parallelism may change", func(j *batchv1.Job) { j.Spec.Suspend, j.Spec.Parallelism = ptr(true), ptr[int32](3) }, ""},
		{"labels may change", func(j *batchv1.Job) { j.Labels = map[string]string{"x": "y"} }, ""},
		{"completions", func(j *batchv1.Job) { j.Spec.Completions = ptr[int32](2) }, "spec.completions"},
		{"selector", func(j *batchv1.Job) { j.Spec.Selector.MatchLabels["job-name"] = "pi" }, "spec.selector"},
		{"template", func(j *batchv1.Job) { j.Spec.Template.Spec.Containers[0].Image = "perl:6" }, "spec.template"},
		{"completionMode", func(j *batchv1.Job) { j.Spec.CompletionMode = ptr(batchv1.IndexedCompletion) }, "spec.completionMode"},
		{"managedBy", func(j *batchv1.Job) { j.Spec.ManagedBy = ptr("example.com/q") }, "spec.managedBy"},
	} {
		j := created(nil)
		tc.mut(j)
		errs := validateUpdate(j, old)
		switch {
		case tc.path == "" && len(errs) != 0:
			t.Errorf("%s: unexpected errors %v", tc.name, errs)
		case tc.path != "" && !findError(errs, tc.path, field.TypeInvalid):
			t.Errorf("%s: errors %v, want immutable %s", tc.name, errs, tc.path)
		}
	}
}

func TestValidateUpdateElasticIndexed(t *testing.T) {
	indexed := func(n int32) *batchv1.Job {
		return created(func(j *batchv1.Job) {
			j.Spec.CompletionMode, j.Spec.Completions, j.Spec.Parallelism = ptr(batchv1.IndexedCompletion), ptr(n), ptr(n)
		})
	}
	old := indexed(3)
	if errs := validateUpdate(indexed(5), old); len(errs) != 0 {
		t.Errorf("scaling completions with parallelism rejected: %v", errs)
	}
	j := indexed(3)
	j.Spec.Completions = ptr[int32](4)
	if errs := validateUpdate(j, old); !findError(errs, "spec.completions", field.TypeInvalid) {
		t.Errorf("completions alone changed: errors %v", errs)
	}
}

func TestValidateStatus(t *testing.T) {
	old := created(nil)
	ok := created(nil)
	ok.Status = batchv1.JobStatus{Active: 1, Succeeded: 2, Ready: ptr[int32](1),
		UncountedTerminatedPods: &batchv1.UncountedTerminatedPods{Succeeded: []meta.UID{"a"}, Failed: []meta.UID{"b"}}}
	if errs := validateUpdate(ok, old); len(errs) != 0 {
		t.Errorf("valid status rejected: %v", errs)
	}
	for _, tc := range []struct {
		status batchv1.JobStatus
		path   string
		typ    field.Type
	}{
		{batchv1.JobStatus{Active: -1}, "status.active", field.TypeInvalid},
		{batchv1.JobStatus{Failed: -1}, "status.failed", field.TypeInvalid},
		{batchv1.JobStatus{Terminating: ptr[int32](-1)}, "status.terminating", field.TypeInvalid},
		{batchv1.JobStatus{UncountedTerminatedPods: &batchv1.UncountedTerminatedPods{Succeeded: []meta.UID{""}}}, "status.uncountedTerminatedPods.succeeded[0]", field.TypeInvalid},
		{batchv1.JobStatus{UncountedTerminatedPods: &batchv1.UncountedTerminatedPods{Succeeded: []meta.UID{"a"}, Failed: []meta.UID{"a"}}}, "status.uncountedTerminatedPods.failed[0]", field.TypeDuplicate},
	} {
		j := created(nil)
		j.Status = tc.status
		if errs := validateUpdate(j, old); !findError(errs, tc.path, tc.typ) {
			t.Errorf("%+v: errors %v, want %s at %s", tc.status, errs, tc.typ, tc.path)
		}
	}
}
