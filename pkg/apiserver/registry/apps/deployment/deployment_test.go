package deployment

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
	if r.Group != "apps" || r.Version != "v1" || r.Name != "deployments" || r.Singular != "deployment" || r.Kind != "Deployment" {
		t.Errorf("names: %+v", r)
	}
	if !r.Namespaced || !r.HasStatus || r.AllowCreateOnUpdate || r.Scale == nil || r.NameFunc != nil {
		t.Errorf("flags: namespaced %v status %v createOnUpdate %v scale %v", r.Namespaced, r.HasStatus, r.AllowCreateOnUpdate, r.Scale != nil)
	}
	if !reflect.DeepEqual(r.ShortNames, []string{"deploy"}) || !reflect.DeepEqual(r.Categories, []string{"all"}) {
		t.Errorf("short names %v categories %v", r.ShortNames, r.Categories)
	}
	if _, ok := r.New().(*appsv1.Deployment); !ok {
		t.Errorf("New() = %T", r.New())
	}
	if r.SelectableFields != nil {
		t.Error("deployments have no selectable fields beyond metadata")
	}
}

func newDeployment() *appsv1.Deployment {
	return &appsv1.Deployment{
		ObjectMeta: meta.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: appsv1.DeploymentSpec{
			Selector: &meta.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: meta.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx:1.27"}}},
			},
		},
	}
}

func valid() *appsv1.Deployment {
	d := newDeployment()
	Default(d)
	return d
}

func i32(v int32) *int32 { return &v }

func ios(v intstr.IntOrString) *intstr.IntOrString { return &v }

func TestDefault(t *testing.T) {
	d := newDeployment()
	Default(d)
	s := d.Spec
	if *s.Replicas != 1 || *s.RevisionHistoryLimit != 10 || *s.ProgressDeadlineSeconds != 600 {
		t.Errorf("replicas %d history %d deadline %d", *s.Replicas, *s.RevisionHistoryLimit, *s.ProgressDeadlineSeconds)
	}
	if s.Strategy.Type != appsv1.RollingUpdateDeploymentStrategyType || s.Strategy.RollingUpdate == nil ||
		*s.Strategy.RollingUpdate.MaxUnavailable != intstr.FromString("25%") || *s.Strategy.RollingUpdate.MaxSurge != intstr.FromString("25%") {
		t.Errorf("strategy %+v", s.Strategy)
	}
	if s.Template.Spec.RestartPolicy != corev1.RestartPolicyAlways {
		t.Errorf("template not defaulted: restartPolicy %q", s.Template.Spec.RestartPolicy)
	}

	// Explicit values, zeros included, survive.
	d = newDeployment()
	d.Spec.Replicas, d.Spec.RevisionHistoryLimit, d.Spec.ProgressDeadlineSeconds = i32(0), i32(0), i32(30)
	d.Spec.Strategy.RollingUpdate = &appsv1.RollingUpdateDeployment{MaxSurge: ios(intstr.FromInt(0))}
	Default(d)
	s = d.Spec
	if *s.Replicas != 0 || *s.RevisionHistoryLimit != 0 || *s.ProgressDeadlineSeconds != 30 {
		t.Errorf("explicit values overwritten: %d %d %d", *s.Replicas, *s.RevisionHistoryLimit, *s.ProgressDeadlineSeconds)
	}
	if *s.Strategy.RollingUpdate.MaxSurge != intstr.FromInt(0) || *s.Strategy.RollingUpdate.MaxUnavailable != intstr.FromString("25%") {
		t.Errorf("rolling update %+v", s.Strategy.RollingUpdate)
	}

	// Recreate gets no rollingUpdate block.
	d = newDeployment()
	d.Spec.Strategy.Type = appsv1.RecreateDeploymentStrategyType
	Default(d)
	if d.Spec.Strategy.RollingUpdate != nil {
		t.Error("Recreate was given a rollingUpdate block")
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
		mutate func(*appsv1.Deployment)
		path   string
		typ    field.Type
	}{
		{"valid", func(*appsv1.Deployment) {}, "", ""},
		{"zero replicas and history", func(d *appsv1.Deployment) { d.Spec.Replicas, d.Spec.RevisionHistoryLimit = i32(0), i32(0) }, "", ""},
		{"negative replicas", func(d *appsv1.Deployment) { d.Spec.Replicas = i32(-1) }, "spec.replicas", field.TypeInvalid},
		{"no selector", func(d *appsv1.Deployment) { d.Spec.Selector = nil }, "spec.selector", field.TypeRequired},
		{"empty selector", func(d *appsv1.Deployment) { d.Spec.Selector = &meta.LabelSelector{} }, "spec.selector", field.TypeInvalid},
		{"bad selector operator", func(d *appsv1.Deployment) {
			d.Spec.Selector.MatchExpressions = []meta.LabelSelectorRequirement{{Key: "app", Operator: "Maybe"}}
		}, "spec.selector.matchExpressions[0].operator", field.TypeNotSupported},
		{"selector does not match", func(d *appsv1.Deployment) { d.Spec.Template.Labels = map[string]string{"app": "db"} },
			"spec.template.metadata.labels", field.TypeInvalid},
		{"template invalid", func(d *appsv1.Deployment) { d.Spec.Template.Spec.Containers[0].Name = "Bad_Name" },
			"spec.template.spec.containers[0].name", field.TypeInvalid},
		{"restart OnFailure", func(d *appsv1.Deployment) { d.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyOnFailure },
			"spec.template.spec.restartPolicy", field.TypeNotSupported},
		{"negative minReadySeconds", func(d *appsv1.Deployment) { d.Spec.MinReadySeconds = -1 }, "spec.minReadySeconds", field.TypeInvalid},
		{"negative history", func(d *appsv1.Deployment) { d.Spec.RevisionHistoryLimit = i32(-1) }, "spec.revisionHistoryLimit", field.TypeInvalid},
		{"deadline not above minReady", func(d *appsv1.Deployment) { d.Spec.MinReadySeconds, d.Spec.ProgressDeadlineSeconds = 10, i32(10) },
			"spec.progressDeadlineSeconds", field.TypeInvalid},
		{"unknown strategy", func(d *appsv1.Deployment) { d.Spec.Strategy.Type = "BlueGreen" }, "spec.strategy.type", field.TypeNotSupported},
		{"Recreate", func(d *appsv1.Deployment) {
			d.Spec.Strategy = appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType}
		}, "", ""},
		{"Recreate with rollingUpdate", func(d *appsv1.Deployment) { d.Spec.Strategy.Type = appsv1.RecreateDeploymentStrategyType },
			"spec.strategy.rollingUpdate", field.TypeForbidden},
		{"RollingUpdate without block", func(d *appsv1.Deployment) { d.Spec.Strategy.RollingUpdate = nil },
			"spec.strategy.rollingUpdate", field.TypeRequired},
		{"surge not a percentage", func(d *appsv1.Deployment) { d.Spec.Strategy.RollingUpdate.MaxSurge = ios(intstr.FromString("lots")) },
			"spec.strategy.rollingUpdate.maxSurge", field.TypeInvalid},
		{"negative unavailable", func(d *appsv1.Deployment) { d.Spec.Strategy.RollingUpdate.MaxUnavailable = ios(intstr.FromInt(-1)) },
			"spec.strategy.rollingUpdate.maxUnavailable", field.TypeInvalid},
		{"unavailable over 100%", func(d *appsv1.Deployment) {
			d.Spec.Strategy.RollingUpdate.MaxUnavailable = ios(intstr.FromString("150%"))
		},
			"spec.strategy.rollingUpdate.maxUnavailable", field.TypeInvalid},
		{"surge over 100% is fine", func(d *appsv1.Deployment) { d.Spec.Strategy.RollingUpdate.MaxSurge = ios(intstr.FromString("200%")) }, "", ""},
		{"both zero", func(d *appsv1.Deployment) {
			d.Spec.Strategy.RollingUpdate.MaxUnavailable = ios(intstr.FromString("0%"))
			d.Spec.Strategy.RollingUpdate.MaxSurge = ios(intstr.FromInt(0))
		}, "spec.strategy.rollingUpdate.maxUnavailable", field.TypeInvalid},
	}
	for _, c := range cases {
		d := valid()
		c.mutate(d)
		errs := Validate(d)
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
	d := valid()
	d.Spec.Replicas = i32(5)
	d.Spec.Template.Spec.Containers[0].Image = "nginx:1.28"
	if errs := ValidateUpdate(d, old); len(errs) > 0 {
		t.Errorf("scaling and a new image rejected: %v", errs)
	}
	d = valid()
	d.Spec.Selector.MatchLabels["tier"] = "fe"
	d.Spec.Template.Labels["tier"] = "fe"
	if errs := ValidateUpdate(d, old); !has(errs, "spec.selector", field.TypeInvalid) {
		t.Errorf("selector change allowed: %v", errs)
	}
	d = valid()
	d.Spec.Replicas = i32(-3)
	if errs := ValidateUpdate(d, old); !has(errs, "spec.replicas", field.TypeInvalid) {
		t.Errorf("update skipped spec validation: %v", errs)
	}
}

func TestPrepareForUpdate(t *testing.T) {
	old := valid()
	old.Generation = 4
	d := valid()
	d.Generation = 4
	prepareForUpdate(d, old)
	if d.Generation != 4 {
		t.Errorf("generation bumped without change: %d", d.Generation)
	}
	d.Annotations = map[string]string{"note": "x"}
	prepareForUpdate(d, old)
	if d.Generation != 5 {
		t.Errorf("annotation change did not bump generation: %d", d.Generation)
	}
}

func TestScale(t *testing.T) {
	s := Resource().Scale
	d := valid()
	d.Spec.Replicas = i32(3)
	d.Status.Replicas = 2
	spec, status, sel := s.Get(d)
	if spec != 3 || status != 2 || sel != "app=web" {
		t.Errorf("Get = %d, %d, %q", spec, status, sel)
	}
	s.SetReplicas(d, 0)
	if *d.Spec.Replicas != 0 {
		t.Errorf("SetReplicas(0): %d", *d.Spec.Replicas)
	}
}
