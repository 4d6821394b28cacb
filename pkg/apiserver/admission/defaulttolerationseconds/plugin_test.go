package defaulttolerationseconds

import (
	"context"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/admission"
)

var pods = meta.GroupVersionResource{Version: "v1", Resource: "pods"}

func TestDefaultTolerations(t *testing.T) {
	secs := func(n int64) *int64 { return &n }
	notReady := func(n int64) corev1.Toleration {
		return corev1.Toleration{Key: corev1.TaintNodeNotReady, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: secs(n)}
	}
	unreachable := func(n int64) corev1.Toleration {
		return corev1.Toleration{Key: corev1.TaintNodeUnreachable, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: secs(n)}
	}
	defaults := Plugin{NotReadySeconds: DefaultSeconds, UnreachableSeconds: DefaultSeconds}
	other := corev1.Toleration{Key: "dedicated", Operator: corev1.TolerationOpEqual, Value: "db", Effect: corev1.TaintEffectNoSchedule}
	cases := []struct {
		name string
		cfg  Plugin
		have []corev1.Toleration
		want []corev1.Toleration
	}{
		{"none gets both defaults", defaults, nil, []corev1.Toleration{notReady(300), unreachable(300)}},
		{"configured seconds", Plugin{NotReadySeconds: 7, UnreachableSeconds: 0}, nil,
			[]corev1.Toleration{notReady(7), unreachable(0)}},
		{"unrelated tolerations are kept", defaults, []corev1.Toleration{other},
			[]corev1.Toleration{other, notReady(300), unreachable(300)}},
		{"own not-ready toleration is kept", defaults, []corev1.Toleration{notReady(5)},
			[]corev1.Toleration{notReady(5), unreachable(300)}},
		{"own unreachable toleration without effect", defaults,
			[]corev1.Toleration{{Key: corev1.TaintNodeUnreachable, Operator: corev1.TolerationOpExists}},
			[]corev1.Toleration{{Key: corev1.TaintNodeUnreachable, Operator: corev1.TolerationOpExists}, notReady(300)}},
		{"NoSchedule toleration of the key does not count", defaults,
			[]corev1.Toleration{{Key: corev1.TaintNodeNotReady, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule}},
			[]corev1.Toleration{{Key: corev1.TaintNodeNotReady, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule}, notReady(300), unreachable(300)}},
		{"tolerate everything", defaults, []corev1.Toleration{{Operator: corev1.TolerationOpExists}},
			[]corev1.Toleration{{Operator: corev1.TolerationOpExists}}},
		{"tolerate every NoExecute taint", defaults,
			[]corev1.Toleration{{Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute}},
			[]corev1.Toleration{{Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, op := range []admission.Operation{admission.Create, admission.Update} {
				pod := &corev1.Pod{Spec: corev1.PodSpec{Tolerations: slices.Clone(tc.have)}}
				a := &admission.Attributes{Operation: op, Resource: pods, Object: pod}
				if err := tc.cfg.Admit(context.Background(), a); err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tc.want, pod.Spec.Tolerations); diff != "" {
					t.Errorf("%s: tolerations (-want +got):\n%s", op, diff)
				}
			}
		})
	}
}

// TestOnlyPods: subresources and other resources are left alone.
func TestOnlyPods(t *testing.T) {
	p := Plugin{NotReadySeconds: 1, UnreachableSeconds: 1}
	for _, a := range []*admission.Attributes{
		{Operation: admission.Update, Resource: pods, Subresource: "status", Object: &corev1.Pod{}},
		{Operation: admission.Create, Resource: meta.GroupVersionResource{Group: "apps", Version: "v1", Resource: "pods"}, Object: &corev1.Pod{}},
	} {
		if err := p.Admit(context.Background(), a); err != nil {
			t.Fatal(err)
		}
		if n := len(a.Object.(*corev1.Pod).Spec.Tolerations); n != 0 {
			t.Errorf("%s %s/%s got %d tolerations, want none", a.Operation, a.Resource, a.Subresource, n)
		}
	}
}
