package replicaset

import (
	"reflect"
	"testing"

	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/validation/field"
)

func TestResource(t *testing.T) {
	r := Resource()
	if r.Group != "apps" || r.Version != "v1" || r.Name != "replicasets" || r.Singular != "replicaset" || r.Kind != "ReplicaSet" {
		t.Errorf("names: %+v", r)
	}
	if !r.Namespaced || !r.HasStatus || r.AllowCreateOnUpdate || r.Scale == nil || r.NameFunc != nil {
		t.Errorf("flags: namespaced %v status %v createOnUpdate %v scale %v", r.Namespaced, r.HasStatus, r.AllowCreateOnUpdate, r.Scale != nil)
	}
	if !reflect.DeepEqual(r.ShortNames, []string{"rs"}) || !reflect.DeepEqual(r.Categories, []string{"all"}) {
		t.Errorf("short names %v categories %v", r.ShortNames, r.Categories)
	}
	if _, ok := r.New().(*appsv1.ReplicaSet); !ok {
		t.Errorf("New() = %T", r.New())
	}
	rs := valid()
	rs.Status.Replicas = 3
	f := r.Fields(rs)
	if f["status.replicas"] != "3" || f["metadata.name"] != "web" || f["metadata.namespace"] != "default" {
		t.Errorf("fields %v", f)
	}
}

func newReplicaSet() *appsv1.ReplicaSet {
	return &appsv1.ReplicaSet{
		ObjectMeta: meta.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: appsv1.ReplicaSetSpec{
			Selector: &meta.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: meta.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx:1.27"}}},
			},
		},
	}
}

func valid() *appsv1.ReplicaSet {
	rs := newReplicaSet()
	Default(rs)
	return rs
}

func i32(v int32) *int32 { return &v }

func TestDefault(t *testing.T) {
	rs := newReplicaSet()
	Default(rs)
	if *rs.Spec.Replicas != 1 || rs.Spec.Template.Spec.RestartPolicy != corev1.RestartPolicyAlways {
		t.Errorf("replicas %d restartPolicy %q", *rs.Spec.Replicas, rs.Spec.Template.Spec.RestartPolicy)
	}
	rs = newReplicaSet()
	rs.Spec.Replicas = i32(0)
	Default(rs)
	if *rs.Spec.Replicas != 0 {
		t.Errorf("explicit 0 replicas became %d", *rs.Spec.Replicas)
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
		mutate func(*appsv1.ReplicaSet)
		path   string
		typ    field.Type
	}{
		{"valid", func(*appsv1.ReplicaSet) {}, "", ""},
		{"zero replicas", func(rs *appsv1.ReplicaSet) { rs.Spec.Replicas = i32(0) }, "", ""},
		{"negative replicas", func(rs *appsv1.ReplicaSet) { rs.Spec.Replicas = i32(-1) }, "spec.replicas", field.TypeInvalid},
		{"negative minReadySeconds", func(rs *appsv1.ReplicaSet) { rs.Spec.MinReadySeconds = -5 }, "spec.minReadySeconds", field.TypeInvalid},
		{"no selector", func(rs *appsv1.ReplicaSet) { rs.Spec.Selector = nil }, "spec.selector", field.TypeRequired},
		{"empty selector", func(rs *appsv1.ReplicaSet) { rs.Spec.Selector = &meta.LabelSelector{} }, "spec.selector", field.TypeInvalid},
		{"selector does not match", func(rs *appsv1.ReplicaSet) {
			rs.Spec.Selector.MatchExpressions = []meta.LabelSelectorRequirement{{Key: "tier", Operator: meta.LabelSelectorOpExists}}
		}, "spec.template.metadata.labels", field.TypeInvalid},
		{"restart Never", func(rs *appsv1.ReplicaSet) { rs.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyNever },
			"spec.template.spec.restartPolicy", field.TypeNotSupported},
		{"active deadline", func(rs *appsv1.ReplicaSet) { v := int64(10); rs.Spec.Template.Spec.ActiveDeadlineSeconds = &v },
			"spec.template.spec.activeDeadlineSeconds", field.TypeForbidden},
	}
	for _, c := range cases {
		rs := valid()
		c.mutate(rs)
		errs := Validate(rs)
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
	rs := valid()
	rs.Spec.Replicas = i32(4)
	if errs := ValidateUpdate(rs, old); len(errs) > 0 {
		t.Errorf("scale rejected: %v", errs)
	}
	rs = valid()
	rs.Spec.Selector = &meta.LabelSelector{MatchLabels: map[string]string{"app": "web", "pod-template-hash": "abc"}}
	rs.Spec.Template.Labels["pod-template-hash"] = "abc"
	if errs := ValidateUpdate(rs, old); !has(errs, "spec.selector", field.TypeInvalid) {
		t.Errorf("selector change allowed: %v", errs)
	}
}

func TestScale(t *testing.T) {
	s := Resource().Scale
	rs := newReplicaSet() // replicas unset: the scale reports the default
	rs.Status.Replicas = 1
	if spec, status, sel := s.Get(rs); spec != 1 || status != 1 || sel != "app=web" {
		t.Errorf("Get = %d, %d, %q", spec, status, sel)
	}
	s.SetReplicas(rs, 7)
	if *rs.Spec.Replicas != 7 {
		t.Errorf("SetReplicas(7): %d", *rs.Spec.Replicas)
	}
}
