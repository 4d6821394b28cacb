package pod

import (
	"testing"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/apiserver/validation/field"
)

func i64(v int64) *int64 { return &v }

func TestValidateUpdate(t *testing.T) {
	cases := []struct {
		name  string
		old   func(p *corev1.Pod)
		mut   func(p *corev1.Pod)
		field string // "" means allowed
		typ   field.Type
	}{
		{"no change", nil, func(p *corev1.Pod) {}, "", ""},
		{"image change", nil, func(p *corev1.Pod) { p.Spec.Containers[0].Image = "nginx:1.26" }, "", ""},
		{"image emptied", nil, func(p *corev1.Pod) { p.Spec.Containers[0].Image = "" }, "spec.containers[0].image", field.TypeRequired},
		{"port change", nil, func(p *corev1.Pod) { p.Spec.Containers[0].Ports[0].ContainerPort = 81 }, "spec", field.TypeForbidden},
		{"container added", nil, func(p *corev1.Pod) {
			c := p.Spec.Containers[0]
			c.Name = "second"
			p.Spec.Containers = append(p.Spec.Containers, c)
		}, "spec.containers", field.TypeForbidden},
		{"restartPolicy change", nil, func(p *corev1.Pod) { p.Spec.RestartPolicy = corev1.RestartPolicyNever }, "spec", field.TypeForbidden},
		{"deadline set", nil, func(p *corev1.Pod) { p.Spec.ActiveDeadlineSeconds = i64(100) }, "", ""},
		{"deadline lowered", func(p *corev1.Pod) { p.Spec.ActiveDeadlineSeconds = i64(100) }, func(p *corev1.Pod) { p.Spec.ActiveDeadlineSeconds = i64(50) }, "", ""},
		{"deadline raised", func(p *corev1.Pod) { p.Spec.ActiveDeadlineSeconds = i64(100) }, func(p *corev1.Pod) { p.Spec.ActiveDeadlineSeconds = i64(200) }, "spec.activeDeadlineSeconds", field.TypeInvalid},
		{"deadline removed", func(p *corev1.Pod) { p.Spec.ActiveDeadlineSeconds = i64(100) }, func(p *corev1.Pod) { p.Spec.ActiveDeadlineSeconds = nil }, "spec.activeDeadlineSeconds", field.TypeInvalid},
		{"toleration added", nil, func(p *corev1.Pod) {
			p.Spec.Tolerations = append(p.Spec.Tolerations, corev1.Toleration{Key: "k", Operator: "Exists"})
		}, "", ""},
		{"toleration seconds changed", func(p *corev1.Pod) {
			p.Spec.Tolerations = []corev1.Toleration{{Key: "k", Operator: "Exists", Effect: "NoExecute", TolerationSeconds: i64(60)}}
		}, func(p *corev1.Pod) { p.Spec.Tolerations[0].TolerationSeconds = i64(30) }, "", ""},
		{"toleration removed", func(p *corev1.Pod) {
			p.Spec.Tolerations = []corev1.Toleration{{Key: "k", Operator: "Exists"}}
		}, func(p *corev1.Pod) { p.Spec.Tolerations = nil }, "spec.tolerations", field.TypeForbidden},
		{"scheduling gate removed", func(p *corev1.Pod) {
			p.Spec.SchedulingGates = []corev1.PodSchedulingGate{{Name: "example.com/a"}}
		}, func(p *corev1.Pod) { p.Spec.SchedulingGates = nil }, "", ""},
		{"scheduling gate added", nil, func(p *corev1.Pod) {
			p.Spec.SchedulingGates = []corev1.PodSchedulingGate{{Name: "example.com/a"}}
		}, "spec.schedulingGates[0]", field.TypeForbidden},
		{"nodeName set", nil, func(p *corev1.Pod) { p.Spec.NodeName = "n1" }, "", ""},
		{"nodeName changed", func(p *corev1.Pod) { p.Spec.NodeName = "n1" }, func(p *corev1.Pod) { p.Spec.NodeName = "n2" }, "spec", field.TypeForbidden},
		{"grace period from negative to 1", func(p *corev1.Pod) { p.Spec.TerminationGracePeriodSeconds = i64(-5) },
			func(p *corev1.Pod) { p.Spec.TerminationGracePeriodSeconds = i64(1) }, "", ""},
		{"grace period change", nil, func(p *corev1.Pod) { p.Spec.TerminationGracePeriodSeconds = i64(10) }, "spec", field.TypeForbidden},
		{"empty list equals missing list", nil, func(p *corev1.Pod) { p.Spec.Volumes = []corev1.Volume{} }, "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			old := newPod()
			if tc.old != nil {
				tc.old(old)
			}
			pod := newPod()
			if tc.old != nil {
				tc.old(pod)
			}
			tc.mut(pod)
			errs := validateUpdate(pod, old)
			if tc.field == "" {
				if len(errs) > 0 {
					t.Fatalf("unexpected errors: %v", errs)
				}
				return
			}
			if !hasError(errs, tc.field, tc.typ) {
				t.Fatalf("want %s on %s, got %v", tc.typ, tc.field, errs)
			}
		})
	}
}

func TestForbiddenUpdateDetail(t *testing.T) {
	old, pod := newPod(), newPod()
	pod.Spec.Hostname = "other"
	errs := validateUpdate(pod, old)
	if len(errs) != 1 || errs[0].Detail != mutableFieldsDetail {
		t.Fatalf("got %v", errs)
	}
}
