package daemonset

import (
	"reflect"
	"testing"

	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/intstr"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/validation/field"
)

func TestResource(t *testing.T) {
	r := Resource()
	if r.Group != "apps" || r.Version != "v1" || r.Name != "daemonsets" || r.Singular != "daemonset" || r.Kind != "DaemonSet" {
		t.Errorf("names: %+v", r)
	}
	if !r.Namespaced || !r.HasStatus || r.AllowCreateOnUpdate || r.Scale != nil || r.NameFunc != nil || r.SelectableFields != nil {
		t.Errorf("flags: namespaced %v status %v createOnUpdate %v scale %v", r.Namespaced, r.HasStatus, r.AllowCreateOnUpdate, r.Scale != nil)
	}
	if !reflect.DeepEqual(r.ShortNames, []string{"ds"}) || !reflect.DeepEqual(r.Categories, []string{"all"}) {
		t.Errorf("short names %v categories %v", r.ShortNames, r.Categories)
	}
	if _, ok := r.New().(*appsv1.DaemonSet); !ok {
		t.Errorf("New() = %T", r.New())
	}
}

func newDaemonSet() *appsv1.DaemonSet {
	return &appsv1.DaemonSet{
		ObjectMeta: meta.ObjectMeta{Name: "agent", Namespace: "platform-system"},
		Spec: appsv1.DaemonSetSpec{
			Selector: &meta.LabelSelector{MatchLabels: map[string]string{"app": "agent"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: meta.ObjectMeta{Labels: map[string]string{"app": "agent"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "agent", Image: "agent:1"}}},
			},
		},
	}
}

func valid() *appsv1.DaemonSet {
	ds := newDaemonSet()
	Default(ds)
	return ds
}

func i32(v int32) *int32 { return &v }

func ios(v intstr.IntOrString) *intstr.IntOrString { return &v }

func TestDefault(t *testing.T) {
	ds := newDaemonSet()
	Default(ds)
	us := ds.Spec.UpdateStrategy
	if us.Type != appsv1.RollingUpdateDaemonSetStrategyType || us.RollingUpdate == nil ||
		*us.RollingUpdate.MaxUnavailable != intstr.FromInt(1) || *us.RollingUpdate.MaxSurge != intstr.FromInt(0) {
		t.Errorf("update strategy %+v", us)
	}
	if *ds.Spec.RevisionHistoryLimit != 10 || ds.Spec.Template.Spec.RestartPolicy != corev1.RestartPolicyAlways {
		t.Errorf("history %d restartPolicy %q", *ds.Spec.RevisionHistoryLimit, ds.Spec.Template.Spec.RestartPolicy)
	}

	ds = newDaemonSet()
	ds.Spec.RevisionHistoryLimit = i32(0)
	ds.Spec.UpdateStrategy.RollingUpdate = &appsv1.RollingUpdateDaemonSet{MaxUnavailable: ios(intstr.FromInt(0)), MaxSurge: ios(intstr.FromString("10%"))}
	Default(ds)
	ru := ds.Spec.UpdateStrategy.RollingUpdate
	if *ds.Spec.RevisionHistoryLimit != 0 || *ru.MaxUnavailable != intstr.FromInt(0) || *ru.MaxSurge != intstr.FromString("10%") {
		t.Errorf("explicit values overwritten: history %d %+v", *ds.Spec.RevisionHistoryLimit, ru)
	}

	ds = newDaemonSet()
	ds.Spec.UpdateStrategy.Type = appsv1.OnDeleteDaemonSetStrategyType
	Default(ds)
	if ds.Spec.UpdateStrategy.RollingUpdate != nil {
		t.Error("OnDelete was given a rollingUpdate block")
	}
}

func has(errs field.ErrorList, path string, typ field.Type) bool {
	for _, e := range errs {
		if e.Field == path && e.Type == typ {
			return true
		}
	}
	return false
}

func TestValidate(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(*appsv1.DaemonSet)
		path   string
		typ    field.Type
	}{
		{"valid", func(*appsv1.DaemonSet) {}, "", ""},
		{"no selector", func(ds *appsv1.DaemonSet) { ds.Spec.Selector = nil }, "spec.selector", field.TypeRequired},
		{"empty selector", func(ds *appsv1.DaemonSet) { ds.Spec.Selector = &meta.LabelSelector{} }, "spec.selector", field.TypeInvalid},
		{"selector does not match", func(ds *appsv1.DaemonSet) { ds.Spec.Template.Labels = nil }, "spec.template.metadata.labels", field.TypeInvalid},
		{"restart Never", func(ds *appsv1.DaemonSet) { ds.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyNever },
			"spec.template.spec.restartPolicy", field.TypeNotSupported},
		{"negative minReadySeconds", func(ds *appsv1.DaemonSet) { ds.Spec.MinReadySeconds = -1 }, "spec.minReadySeconds", field.TypeInvalid},
		{"negative history", func(ds *appsv1.DaemonSet) { ds.Spec.RevisionHistoryLimit = i32(-1) }, "spec.revisionHistoryLimit", field.TypeInvalid},
		{"unknown strategy", func(ds *appsv1.DaemonSet) { ds.Spec.UpdateStrategy.Type = "Always" }, "spec.updateStrategy.type", field.TypeNotSupported},
		{"OnDelete", func(ds *appsv1.DaemonSet) {
			ds.Spec.UpdateStrategy = appsv1.DaemonSetUpdateStrategy{Type: appsv1.OnDeleteDaemonSetStrategyType}
		}, "", ""},
		{"RollingUpdate without block", func(ds *appsv1.DaemonSet) { ds.Spec.UpdateStrategy.RollingUpdate = nil },
			"spec.updateStrategy.rollingUpdate", field.TypeRequired},
		{"surge instead of unavailable", func(ds *appsv1.DaemonSet) {
			ds.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = ios(intstr.FromInt(0))
			ds.Spec.UpdateStrategy.RollingUpdate.MaxSurge = ios(intstr.FromString("20%"))
		}, "", ""},
		{"both zero", func(ds *appsv1.DaemonSet) {
			ds.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = ios(intstr.FromString("0%"))
		},
			"spec.updateStrategy.rollingUpdate.maxUnavailable", field.TypeInvalid},
		{"both non-zero", func(ds *appsv1.DaemonSet) { ds.Spec.UpdateStrategy.RollingUpdate.MaxSurge = ios(intstr.FromInt(1)) },
			"spec.updateStrategy.rollingUpdate.maxSurge", field.TypeInvalid},
		{"negative unavailable", func(ds *appsv1.DaemonSet) {
			ds.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = ios(intstr.FromInt(-1))
		},
			"spec.updateStrategy.rollingUpdate.maxUnavailable", field.TypeInvalid},
		{"bad percentage", func(ds *appsv1.DaemonSet) {
			ds.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = ios(intstr.FromString("1.5%"))
		},
			"spec.updateStrategy.rollingUpdate.maxUnavailable", field.TypeInvalid},
		{"surge over 100%", func(ds *appsv1.DaemonSet) {
			ds.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = ios(intstr.FromInt(0))
			ds.Spec.UpdateStrategy.RollingUpdate.MaxSurge = ios(intstr.FromString("101%"))
		}, "spec.updateStrategy.rollingUpdate.maxSurge", field.TypeInvalid},
	}
	for _, c := range cases {
		ds := valid()
		c.mutate(ds)
		errs := Validate(ds)
		if c.path == "" {
			if len(errs) > 0 {
				t.Errorf("%s: unexpected errors %v", c.name, errs)
			}
			continue
		}
		if !has(errs, c.path, c.typ) {
			t.Errorf("%s: want %s at %s, got %v", c.name, c.typ, c.path, errs)
		}
	}
}

func TestValidateUpdate(t *testing.T) {
	old := valid()
	ds := valid()
	ds.Spec.Template.Spec.Containers[0].Image = "agent:2"
	if errs := ValidateUpdate(ds, old); len(errs) > 0 {
		t.Errorf("image change rejected: %v", errs)
	}
	ds = valid()
	ds.Spec.Selector = &meta.LabelSelector{MatchExpressions: []meta.LabelSelectorRequirement{
		{Key: "app", Operator: meta.LabelSelectorOpIn, Values: []string{"agent"}}}}
	if errs := ValidateUpdate(ds, old); !has(errs, "spec.selector", field.TypeInvalid) {
		t.Errorf("selector change allowed: %v", errs)
	}
}

func TestTemplateGeneration(t *testing.T) {
	ds := valid()
	ds.Annotations = map[string]string{appsv1.DeprecatedTemplateGeneration: "7"}
	prepareForCreate(ds)
	if got := ds.Annotations[appsv1.DeprecatedTemplateGeneration]; got != "1" {
		t.Fatalf("create: template generation %q", got)
	}
	old := ds

	same := valid()
	same.Spec.MinReadySeconds = 5
	prepareForUpdate(same, old)
	if got := same.Annotations[appsv1.DeprecatedTemplateGeneration]; got != "1" {
		t.Errorf("update without template change: %q", got)
	}

	changed := valid()
	changed.Annotations = map[string]string{appsv1.DeprecatedTemplateGeneration: "40"}
	changed.Spec.Template.Spec.Containers[0].Image = "agent:2"
	prepareForUpdate(changed, old)
	if got := changed.Annotations[appsv1.DeprecatedTemplateGeneration]; got != "2" {
		t.Errorf("update with template change: %q", got)
	}

	// An object created without the annotation keeps having none until its
	// template changes.
	legacy := valid()
	again := valid()
	prepareForUpdate(again, legacy)
	if _, ok := again.Annotations[appsv1.DeprecatedTemplateGeneration]; ok {
		t.Errorf("annotation added without a template change: %v", again.Annotations)
	}
}
