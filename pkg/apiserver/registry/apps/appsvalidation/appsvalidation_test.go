package appsvalidation

import (
	"testing"

	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/intstr"
	"platform.io/client/api/labels"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry/core/podspec"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// check asserts that errs is empty when path is "", and otherwise holds an
// error of type typ at path.
func check(t *testing.T, name string, errs field.ErrorList, path string, typ field.Type) {
	t.Helper()
	if path == "" {
		if len(errs) > 0 {
			t.Errorf("%s: unexpected errors %v", name, errs)
		}
		return
	}
	for _, e := range errs {
		if e.Field == path && e.Type == typ {
			return
		}
	}
	t.Errorf("%s: want %s error at %s, got %v", name, typ, path, errs)
}

func TestSelector(t *testing.T) {
	p := field.NewPath("spec", "selector")
	cases := []struct {
		name string
		sel  *meta.LabelSelector
		path string
		typ  field.Type
	}{
		{"match labels", &meta.LabelSelector{MatchLabels: map[string]string{"app": "web"}}, "", ""},
		{"expressions", &meta.LabelSelector{MatchExpressions: []meta.LabelSelectorRequirement{
			{Key: "tier", Operator: meta.LabelSelectorOpIn, Values: []string{"a", "b"}},
			{Key: "legacy", Operator: meta.LabelSelectorOpDoesNotExist},
		}}, "", ""},
		{"nil", nil, "spec.selector", field.TypeRequired},
		{"empty", &meta.LabelSelector{}, "spec.selector", field.TypeInvalid},
		{"bad label value", &meta.LabelSelector{MatchLabels: map[string]string{"app": "a b"}}, "spec.selector.matchLabels[app]", field.TypeInvalid},
		{"bad key", &meta.LabelSelector{MatchExpressions: []meta.LabelSelectorRequirement{
			{Key: "-bad", Operator: meta.LabelSelectorOpExists}}}, "spec.selector.matchExpressions[0].key", field.TypeInvalid},
		{"bad operator", &meta.LabelSelector{MatchExpressions: []meta.LabelSelectorRequirement{
			{Key: "app", Operator: "Near"}}}, "spec.selector.matchExpressions[0].operator", field.TypeNotSupported},
		{"In without values", &meta.LabelSelector{MatchExpressions: []meta.LabelSelectorRequirement{
			{Key: "app", Operator: meta.LabelSelectorOpIn}}}, "spec.selector.matchExpressions[0].values", field.TypeRequired},
		{"Exists with values", &meta.LabelSelector{MatchExpressions: []meta.LabelSelectorRequirement{
			{Key: "app", Operator: meta.LabelSelectorOpExists, Values: []string{"x"}}}}, "spec.selector.matchExpressions[0].values", field.TypeForbidden},
	}
	for _, c := range cases {
		parsed, errs := Selector(c.sel, "deployment", p)
		check(t, c.name, errs, c.path, c.typ)
		if c.path == "" && parsed == nil {
			t.Errorf("%s: no parsed selector", c.name)
		}
	}
}

func TestSelectorString(t *testing.T) {
	sel := &meta.LabelSelector{
		MatchLabels:      map[string]string{"app": "web"},
		MatchExpressions: []meta.LabelSelectorRequirement{{Key: "tier", Operator: meta.LabelSelectorOpNotIn, Values: []string{"db"}}},
	}
	got := SelectorString(sel)
	parsed, err := labels.Parse(got)
	if err != nil || !parsed.Matches(labels.Set{"app": "web", "tier": "fe"}) || parsed.Matches(labels.Set{"app": "web", "tier": "db"}) {
		t.Errorf("SelectorString = %q (parse error %v)", got, err)
	}
	if SelectorString(nil) != "" {
		t.Error("nil selector should render empty")
	}
}

func TestIntOrPercent(t *testing.T) {
	p := field.NewPath("x")
	cases := []struct {
		name     string
		v        intstr.IntOrString
		path     string
		max100   bool // expect a >100% error
		wantUsed int
	}{
		{"int", intstr.FromInt(3), "", false, 3},
		{"zero", intstr.FromInt(0), "", false, 0},
		{"percent", intstr.FromString("25%"), "", false, 25},
		{"negative", intstr.FromInt(-1), "x", false, -1},
		{"no percent sign", intstr.FromString("25"), "x", false, 0},
		{"not a number", intstr.FromString("x%"), "x", false, 0},
		{"negative percent", intstr.FromString("-5%"), "x", false, 0},
		{"over 100", intstr.FromString("101%"), "", true, 101},
	}
	for _, c := range cases {
		check(t, c.name, IntOrPercent(&c.v, p), c.path, field.TypeInvalid)
		over := NotMoreThan100Percent(&c.v, p)
		if (len(over) > 0) != c.max100 {
			t.Errorf("%s: NotMoreThan100Percent = %v", c.name, over)
		}
		if got := IntOrPercentValue(&c.v); got != c.wantUsed {
			t.Errorf("%s: IntOrPercentValue = %d, want %d", c.name, got, c.wantUsed)
		}
	}
	if IntOrPercent(nil, p) != nil || NotMoreThan100Percent(nil, p) != nil || IntOrPercentValue(nil) != 0 {
		t.Error("nil values should pass and count as 0")
	}
}

func TestNonNegative(t *testing.T) {
	p := field.NewPath("n")
	check(t, "zero", NonNegative(0, p), "", "")
	check(t, "negative", NonNegative(-1, p), "n", field.TypeInvalid)
	check(t, "nil", NonNegativePtr(nil, p), "", "")
	check(t, "negative ptr", NonNegativePtr(Int32(-2), p), "n", field.TypeInvalid)
}

func TestImmutable(t *testing.T) {
	p := field.NewPath("spec", "selector")
	a := &meta.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	b := &meta.LabelSelector{MatchLabels: map[string]string{"app": "web"}, MatchExpressions: []meta.LabelSelectorRequirement{}}
	check(t, "same", Immutable(a, b, p), "", "")
	c := &meta.LabelSelector{MatchLabels: map[string]string{"app": "db"}}
	check(t, "changed", Immutable(c, a, p), "spec.selector", field.TypeInvalid)
}

func template() corev1.PodTemplateSpec {
	t := corev1.PodTemplateSpec{
		ObjectMeta: meta.ObjectMeta{Labels: map[string]string{"app": "web"}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx:1.27"}}},
	}
	podspec.DefaultPodTemplateSpec(&t)
	return t
}

func TestTemplate(t *testing.T) {
	p := field.NewPath("spec", "template")
	sel := labels.SelectorFromSet(labels.Set{"app": "web"})
	cases := []struct {
		name   string
		mutate func(*corev1.PodTemplateSpec)
		sel    labels.Selector
		path   string
		typ    field.Type
	}{
		{"valid", func(*corev1.PodTemplateSpec) {}, sel, "", ""},
		{"nil selector skips matching", func(t *corev1.PodTemplateSpec) { t.Labels = nil }, nil, "", ""},
		{"labels do not match", func(t *corev1.PodTemplateSpec) { t.Labels = map[string]string{"app": "db"} },
			sel, "spec.template.metadata.labels", field.TypeInvalid},
		{"restart Never", func(t *corev1.PodTemplateSpec) { t.Spec.RestartPolicy = corev1.RestartPolicyNever },
			sel, "spec.template.spec.restartPolicy", field.TypeNotSupported},
		{"active deadline", func(t *corev1.PodTemplateSpec) { v := int64(30); t.Spec.ActiveDeadlineSeconds = &v },
			sel, "spec.template.spec.activeDeadlineSeconds", field.TypeForbidden},
		{"bad template label", func(t *corev1.PodTemplateSpec) { t.Labels["app"] = "-x" },
			nil, "spec.template.metadata.labels[app]", field.TypeInvalid},
	}
	for _, c := range cases {
		tmpl := template()
		c.mutate(&tmpl)
		check(t, c.name, Template(&tmpl, c.sel, "Deployment", p), c.path, c.typ)
	}
}

func TestScale(t *testing.T) {
	s := Scale(
		func(rs *appsv1.ReplicaSet) (*int32, int32, *meta.LabelSelector) {
			return rs.Spec.Replicas, rs.Status.Replicas, rs.Spec.Selector
		},
		func(rs *appsv1.ReplicaSet, n int32) { rs.Spec.Replicas = &n },
	)
	rs := &appsv1.ReplicaSet{}
	rs.Spec.Selector = &meta.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	rs.Status.Replicas = 2
	spec, status, sel := s.Get(rs)
	if spec != 1 || status != 2 || sel != "app=web" {
		t.Errorf("Get = %d, %d, %q", spec, status, sel)
	}
	s.SetReplicas(rs, 5)
	if spec, _, _ := s.Get(rs); spec != 5 || *rs.Spec.Replicas != 5 {
		t.Errorf("after SetReplicas(5): spec %d", spec)
	}
}
