package batchvalidation

import (
	"testing"

	batchv1 "platform.io/client/api/batch/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/validation/field"
)

func hasError(errs field.ErrorList, path string, typ field.Type) bool {
	for _, e := range errs {
		if e.Field == path && e.Type == typ {
			return true
		}
	}
	return false
}

func TestDefaultJobTemplateSpecLeavesJobFields(t *testing.T) {
	spec := &batchv1.JobSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "i"}}}}}
	DefaultJobTemplateSpec(spec)
	if spec.Completions != nil || spec.Parallelism != nil || spec.BackoffLimit != nil || spec.CompletionMode != nil || spec.ManualSelector != nil {
		t.Errorf("job defaults applied: %+v", spec)
	}
	if spec.Template.Spec.RestartPolicy != corev1.RestartPolicyAlways {
		t.Errorf("pod defaults not applied: %+v", spec.Template.Spec)
	}
}

func TestCountIndexes(t *testing.T) {
	for _, tc := range []struct {
		in    string
		want  int32
		valid bool
	}{
		{"", 0, true}, {"0", 1, true}, {"0,2-4,6", 5, true}, {"0-9", 10, true},
		{"10", 0, false}, {"3,1", 0, false}, {"1-1", 0, false}, {"2-1", 0, false}, {"1-2-3", 0, false},
		{"a", 0, false}, {"-1", 0, false}, {"1,", 0, false}, {"1,1", 0, false}, {"0-3,3", 0, false},
	} {
		got, err := CountIndexes(tc.in, 10)
		if (err == nil) != tc.valid || got != tc.want {
			t.Errorf("CountIndexes(%q) = %d, %v; want %d, valid %v", tc.in, got, err, tc.want, tc.valid)
		}
	}
}

func TestValidateLabelSelector(t *testing.T) {
	p := field.NewPath("spec", "selector")
	ok := &meta.LabelSelector{MatchLabels: map[string]string{"app": "x"}, MatchExpressions: []meta.LabelSelectorRequirement{
		{Key: "tier", Operator: meta.LabelSelectorOpIn, Values: []string{"a", "b"}},
		{Key: "platform.io/role", Operator: meta.LabelSelectorOpExists},
	}}
	if errs := ValidateLabelSelector(ok, p); len(errs) != 0 {
		t.Errorf("valid selector rejected: %v", errs)
	}
	for _, tc := range []struct {
		sel  meta.LabelSelector
		path string
		typ  field.Type
	}{
		{meta.LabelSelector{MatchLabels: map[string]string{"app": "bad value"}}, "spec.selector.matchLabels[app]", field.TypeInvalid},
		{meta.LabelSelector{MatchExpressions: []meta.LabelSelectorRequirement{{Key: "a", Operator: meta.LabelSelectorOpNotIn}}}, "spec.selector.matchExpressions[0].values", field.TypeRequired},
		{meta.LabelSelector{MatchExpressions: []meta.LabelSelectorRequirement{{Key: "a", Operator: meta.LabelSelectorOpDoesNotExist, Values: []string{"x"}}}}, "spec.selector.matchExpressions[0].values", field.TypeForbidden},
		{meta.LabelSelector{MatchExpressions: []meta.LabelSelectorRequirement{{Key: "-a", Operator: meta.LabelSelectorOpExists}}}, "spec.selector.matchExpressions[0].key", field.TypeInvalid},
		{meta.LabelSelector{MatchExpressions: []meta.LabelSelectorRequirement{{Key: "a", Operator: "Near"}}}, "spec.selector.matchExpressions[0].operator", field.TypeInvalid},
	} {
		if errs := ValidateLabelSelector(&tc.sel, p); !hasError(errs, tc.path, tc.typ) {
			t.Errorf("%+v: errors %v, want %s at %s", tc.sel, errs, tc.typ, tc.path)
		}
	}
}

func TestSelectorMatches(t *testing.T) {
	sel := &meta.LabelSelector{MatchLabels: map[string]string{"a": "1"}}
	if m, ok := SelectorMatches(sel, map[string]string{"a": "1", "b": "2"}); !m || !ok {
		t.Errorf("match = %v, %v", m, ok)
	}
	if m, ok := SelectorMatches(sel, map[string]string{"a": "2"}); m || !ok {
		t.Errorf("mismatch = %v, %v", m, ok)
	}
	bad := &meta.LabelSelector{MatchExpressions: []meta.LabelSelectorRequirement{{Key: "a", Operator: "Near"}}}
	if _, ok := SelectorMatches(bad, nil); ok {
		t.Error("invalid selector reported as usable")
	}
}

func TestSemanticEqual(t *testing.T) {
	a := corev1.PodTemplateSpec{ObjectMeta: meta.ObjectMeta{Annotations: map[string]string{}}}
	b := corev1.PodTemplateSpec{}
	if !SemanticEqual(a, b) {
		t.Error("empty and nil maps differ")
	}
	b.Labels = map[string]string{"x": "y"}
	if SemanticEqual(a, b) {
		t.Error("different labels compare equal")
	}
}

func TestValidateManagedBy(t *testing.T) {
	p := field.NewPath("spec", "managedBy")
	for _, v := range []string{"kueue.x-k8s.io/multikueue", "example.com/a/b"} {
		if errs := validateManagedBy(v, p); len(errs) != 0 {
			t.Errorf("%q rejected: %v", v, errs)
		}
	}
	for _, v := range []string{"kueue", "Example.com/x", "example.com/", "example.com/a b", "example.com/" + string(make([]byte, 60))} {
		if errs := validateManagedBy(v, p); len(errs) == 0 {
			t.Errorf("%q accepted", v)
		}
	}
}
