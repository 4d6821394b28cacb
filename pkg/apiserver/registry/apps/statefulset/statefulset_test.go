package statefulset

import (
	"encoding/json"
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
	if r.Group != "apps" || r.Version != "v1" || r.Name != "statefulsets" || r.Singular != "statefulset" || r.Kind != "StatefulSet" {
		t.Errorf("names: %+v", r)
	}
	if !r.Namespaced || !r.HasStatus || r.AllowCreateOnUpdate || r.Scale == nil || r.SelectableFields != nil {
		t.Errorf("flags: namespaced %v status %v createOnUpdate %v scale %v", r.Namespaced, r.HasStatus, r.AllowCreateOnUpdate, r.Scale != nil)
	}
	if !reflect.DeepEqual(r.ShortNames, []string{"sts"}) || !reflect.DeepEqual(r.Categories, []string{"all"}) {
		t.Errorf("short names %v categories %v", r.ShortNames, r.Categories)
	}
	if _, ok := r.New().(*appsv1.StatefulSet); !ok {
		t.Errorf("New() = %T", r.New())
	}
	if r.NameFunc == nil || len(r.NameFunc("db.primary")) == 0 || len(r.NameFunc("db-0")) != 0 {
		t.Error("names should be DNS labels")
	}
}

func claim(name string) appsv1.PersistentVolumeClaim {
	return appsv1.PersistentVolumeClaim{
		ObjectMeta: meta.ObjectMeta{Name: name},
		Spec:       json.RawMessage(`{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}`),
	}
}

func newStatefulSet() *appsv1.StatefulSet {
	return &appsv1.StatefulSet{
		ObjectMeta: meta.ObjectMeta{Name: "db", Namespace: "default"},
		Spec: appsv1.StatefulSetSpec{
			ServiceName: "db",
			Selector:    &meta.LabelSelector{MatchLabels: map[string]string{"app": "db"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: meta.ObjectMeta{Labels: map[string]string{"app": "db"}},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{
					Name: "db", Image: "postgres:16",
					VolumeMounts: []corev1.VolumeMount{{Name: "data", MountPath: "/var/lib/postgresql"}},
				}}},
			},
			VolumeClaimTemplates: []appsv1.PersistentVolumeClaim{claim("data")},
		},
	}
}

func valid() *appsv1.StatefulSet {
	ss := newStatefulSet()
	Default(ss)
	return ss
}

func i32(v int32) *int32 { return &v }

func TestDefault(t *testing.T) {
	ss := newStatefulSet()
	Default(ss)
	s := ss.Spec
	if *s.Replicas != 1 || *s.RevisionHistoryLimit != 10 || s.PodManagementPolicy != appsv1.OrderedReadyPodManagement {
		t.Errorf("replicas %d history %d policy %q", *s.Replicas, *s.RevisionHistoryLimit, s.PodManagementPolicy)
	}
	if s.UpdateStrategy.Type != appsv1.RollingUpdateStatefulSetStrategyType || s.UpdateStrategy.RollingUpdate == nil ||
		*s.UpdateStrategy.RollingUpdate.Partition != 0 || s.UpdateStrategy.RollingUpdate.MaxUnavailable != nil {
		t.Errorf("update strategy %+v", s.UpdateStrategy)
	}
	want := appsv1.StatefulSetPersistentVolumeClaimRetentionPolicy{WhenDeleted: "Retain", WhenScaled: "Retain"}
	if s.PersistentVolumeClaimRetentionPolicy == nil || *s.PersistentVolumeClaimRetentionPolicy != want {
		t.Errorf("retention policy %+v", s.PersistentVolumeClaimRetentionPolicy)
	}
	if s.Template.Spec.RestartPolicy != corev1.RestartPolicyAlways {
		t.Errorf("template not defaulted")
	}

	ss = newStatefulSet()
	ss.Spec.Replicas, ss.Spec.RevisionHistoryLimit = i32(0), i32(0)
	ss.Spec.PodManagementPolicy = appsv1.ParallelPodManagement
	ss.Spec.UpdateStrategy.RollingUpdate = &appsv1.RollingUpdateStatefulSetStrategy{Partition: i32(2)}
	ss.Spec.PersistentVolumeClaimRetentionPolicy = &appsv1.StatefulSetPersistentVolumeClaimRetentionPolicy{WhenDeleted: "Delete"}
	Default(ss)
	s = ss.Spec
	if *s.Replicas != 0 || *s.RevisionHistoryLimit != 0 || s.PodManagementPolicy != appsv1.ParallelPodManagement ||
		*s.UpdateStrategy.RollingUpdate.Partition != 2 || s.PersistentVolumeClaimRetentionPolicy.WhenDeleted != "Delete" ||
		s.PersistentVolumeClaimRetentionPolicy.WhenScaled != "Retain" {
		t.Errorf("explicit values overwritten: %+v", s)
	}

	// An explicit RollingUpdate type without a block stays without one;
	// an explicit block gets partition 0.
	ss = newStatefulSet()
	ss.Spec.UpdateStrategy.Type = appsv1.RollingUpdateStatefulSetStrategyType
	Default(ss)
	if ss.Spec.UpdateStrategy.RollingUpdate != nil {
		t.Error("rollingUpdate block added for an explicit type")
	}
	ss.Spec.UpdateStrategy.RollingUpdate = &appsv1.RollingUpdateStatefulSetStrategy{}
	Default(ss)
	if p := ss.Spec.UpdateStrategy.RollingUpdate.Partition; p == nil || *p != 0 {
		t.Errorf("partition %v", p)
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
		mutate func(*appsv1.StatefulSet)
		path   string
		typ    field.Type
	}{
		{"valid", func(*appsv1.StatefulSet) {}, "", ""},
		{"no service name", func(ss *appsv1.StatefulSet) { ss.Spec.ServiceName = "" }, "", ""},
		{"bad service name", func(ss *appsv1.StatefulSet) { ss.Spec.ServiceName = "1db" }, "spec.serviceName", field.TypeInvalid},
		{"claim mount shadows a template volume", func(ss *appsv1.StatefulSet) {
			ss.Spec.Template.Spec.Volumes = []corev1.Volume{{Name: "data", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}}
		}, "", ""},
		{"mount of no volume or claim", func(ss *appsv1.StatefulSet) { ss.Spec.VolumeClaimTemplates = nil },
			"spec.template.spec.containers[0].volumeMounts[0].name", field.TypeNotFound},
		{"claim without name", func(ss *appsv1.StatefulSet) {
			ss.Spec.VolumeClaimTemplates = append(ss.Spec.VolumeClaimTemplates, claim(""))
		},
			"spec.volumeClaimTemplates[1].metadata.name", field.TypeRequired},
		{"duplicate claim", func(ss *appsv1.StatefulSet) {
			ss.Spec.VolumeClaimTemplates = append(ss.Spec.VolumeClaimTemplates, claim("data"))
		},
			"spec.volumeClaimTemplates[1].metadata.name", field.TypeDuplicate},
		{"bad pod management policy", func(ss *appsv1.StatefulSet) { ss.Spec.PodManagementPolicy = "Random" },
			"spec.podManagementPolicy", field.TypeNotSupported},
		{"Parallel", func(ss *appsv1.StatefulSet) { ss.Spec.PodManagementPolicy = appsv1.ParallelPodManagement }, "", ""},
		{"bad strategy", func(ss *appsv1.StatefulSet) { ss.Spec.UpdateStrategy.Type = "Canary" }, "spec.updateStrategy.type", field.TypeNotSupported},
		{"OnDelete with rollingUpdate", func(ss *appsv1.StatefulSet) { ss.Spec.UpdateStrategy.Type = appsv1.OnDeleteStatefulSetStrategyType },
			"spec.updateStrategy.rollingUpdate", field.TypeForbidden},
		{"OnDelete", func(ss *appsv1.StatefulSet) {
			ss.Spec.UpdateStrategy = appsv1.StatefulSetUpdateStrategy{Type: appsv1.OnDeleteStatefulSetStrategyType}
		}, "", ""},
		{"negative partition", func(ss *appsv1.StatefulSet) { ss.Spec.UpdateStrategy.RollingUpdate.Partition = i32(-1) },
			"spec.updateStrategy.rollingUpdate.partition", field.TypeInvalid},
		{"zero maxUnavailable", func(ss *appsv1.StatefulSet) {
			v := intstr.FromString("0%")
			ss.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = &v
		}, "spec.updateStrategy.rollingUpdate.maxUnavailable", field.TypeInvalid},
		{"maxUnavailable 50%", func(ss *appsv1.StatefulSet) {
			v := intstr.FromString("50%")
			ss.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = &v
		}, "", ""},
		{"bad retention", func(ss *appsv1.StatefulSet) { ss.Spec.PersistentVolumeClaimRetentionPolicy.WhenScaled = "Keep" },
			"spec.persistentVolumeClaimRetentionPolicy.whenScaled", field.TypeNotSupported},
		{"negative replicas", func(ss *appsv1.StatefulSet) { ss.Spec.Replicas = i32(-1) }, "spec.replicas", field.TypeInvalid},
		{"negative minReadySeconds", func(ss *appsv1.StatefulSet) { ss.Spec.MinReadySeconds = -1 }, "spec.minReadySeconds", field.TypeInvalid},
		{"negative history", func(ss *appsv1.StatefulSet) { ss.Spec.RevisionHistoryLimit = i32(-1) }, "spec.revisionHistoryLimit", field.TypeInvalid},
		{"negative ordinal start", func(ss *appsv1.StatefulSet) { ss.Spec.Ordinals = &appsv1.StatefulSetOrdinals{Start: -1} },
			"spec.ordinals.start", field.TypeInvalid},
		{"no selector", func(ss *appsv1.StatefulSet) { ss.Spec.Selector = nil }, "spec.selector", field.TypeRequired},
		{"empty selector", func(ss *appsv1.StatefulSet) { ss.Spec.Selector = &meta.LabelSelector{} }, "spec.selector", field.TypeInvalid},
		{"selector does not match", func(ss *appsv1.StatefulSet) { ss.Spec.Template.Labels["app"] = "web" },
			"spec.template.metadata.labels", field.TypeInvalid},
		{"restart OnFailure", func(ss *appsv1.StatefulSet) { ss.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyOnFailure },
			"spec.template.spec.restartPolicy", field.TypeNotSupported},
	}
	for _, c := range cases {
		ss := valid()
		c.mutate(ss)
		errs := Validate(ss)
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
	allowed := []struct {
		name   string
		mutate func(*appsv1.StatefulSet)
	}{
		{"nothing", func(*appsv1.StatefulSet) {}},
		{"replicas", func(ss *appsv1.StatefulSet) { ss.Spec.Replicas = i32(3) }},
		{"template", func(ss *appsv1.StatefulSet) { ss.Spec.Template.Spec.Containers[0].Image = "postgres:17" }},
		{"update strategy", func(ss *appsv1.StatefulSet) {
			ss.Spec.UpdateStrategy = appsv1.StatefulSetUpdateStrategy{Type: appsv1.OnDeleteStatefulSetStrategyType}
		}},
		{"retention", func(ss *appsv1.StatefulSet) { ss.Spec.PersistentVolumeClaimRetentionPolicy.WhenDeleted = "Delete" }},
		{"minReadySeconds", func(ss *appsv1.StatefulSet) { ss.Spec.MinReadySeconds = 9 }},
		{"ordinals", func(ss *appsv1.StatefulSet) { ss.Spec.Ordinals = &appsv1.StatefulSetOrdinals{Start: 5} }},
		{"history", func(ss *appsv1.StatefulSet) { ss.Spec.RevisionHistoryLimit = i32(2) }},
		{"claim reformatted", func(ss *appsv1.StatefulSet) {
			ss.Spec.VolumeClaimTemplates[0].Spec = json.RawMessage(`{ "resources": {"requests": {"storage": "1Gi"}}, "accessModes": ["ReadWriteOnce"] }`)
		}},
	}
	for _, c := range allowed {
		old, ss := valid(), valid()
		c.mutate(ss)
		if errs := ValidateUpdate(ss, old); len(errs) > 0 {
			t.Errorf("%s: unexpected errors %v", c.name, errs)
		}
	}
	frozen := []struct {
		name   string
		mutate func(*appsv1.StatefulSet)
	}{
		{"service name", func(ss *appsv1.StatefulSet) { ss.Spec.ServiceName = "db-headless" }},
		{"pod management policy", func(ss *appsv1.StatefulSet) { ss.Spec.PodManagementPolicy = appsv1.ParallelPodManagement }},
		{"claim size", func(ss *appsv1.StatefulSet) {
			ss.Spec.VolumeClaimTemplates[0].Spec = json.RawMessage(`{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"2Gi"}}}`)
		}},
	}
	for _, c := range frozen {
		old, ss := valid(), valid()
		c.mutate(ss)
		if errs := ValidateUpdate(ss, old); !has(errs, "spec", field.TypeForbidden) {
			t.Errorf("%s: change allowed: %v", c.name, errs)
		}
	}
	old, ss := valid(), valid()
	ss.Spec.Selector.MatchLabels["tier"] = "data"
	ss.Spec.Template.Labels["tier"] = "data"
	errs := ValidateUpdate(ss, old)
	if !has(errs, "spec.selector", field.TypeInvalid) || has(errs, "spec", field.TypeForbidden) {
		t.Errorf("selector change: %v", errs)
	}
}

func TestScale(t *testing.T) {
	s := Resource().Scale
	ss := valid()
	ss.Spec.Replicas = i32(2)
	ss.Status.Replicas = 1
	if spec, status, sel := s.Get(ss); spec != 2 || status != 1 || sel != "app=db" {
		t.Errorf("Get = %d, %d, %q", spec, status, sel)
	}
	s.SetReplicas(ss, 4)
	if *ss.Spec.Replicas != 4 {
		t.Errorf("SetReplicas(4): %d", *ss.Spec.Replicas)
	}
}
