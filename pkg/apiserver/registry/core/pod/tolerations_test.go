package pod

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	corev1 "platform.io/client/api/core/v1"
)

func TestDefaultTolerations(t *testing.T) {
	secs := func(n int64) *int64 { return &n }
	notReady := func(n int64) corev1.Toleration {
		return corev1.Toleration{Key: corev1.TaintNodeNotReady, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: secs(n)}
	}
	unreachable := func(n int64) corev1.Toleration {
		return corev1.Toleration{Key: corev1.TaintNodeUnreachable, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: secs(n)}
	}
	other := corev1.Toleration{Key: "dedicated", Operator: corev1.TolerationOpEqual, Value: "db", Effect: corev1.TaintEffectNoSchedule}
	cases := []struct {
		name string
		cfg  Config
		have []corev1.Toleration
		want []corev1.Toleration
	}{
		{"none gets both defaults", DefaultConfig(), nil, []corev1.Toleration{notReady(300), unreachable(300)}},
		{"configured seconds", Config{NotReadyTolerationSeconds: 7, UnreachableTolerationSeconds: 0}, nil,
			[]corev1.Toleration{notReady(7), unreachable(0)}},
		{"unrelated tolerations are kept", DefaultConfig(), []corev1.Toleration{other},
			[]corev1.Toleration{other, notReady(300), unreachable(300)}},
		{"own not-ready toleration is kept", DefaultConfig(), []corev1.Toleration{notReady(5)},
			[]corev1.Toleration{notReady(5), unreachable(300)}},
		{"own unreachable toleration without effect", DefaultConfig(),
			[]corev1.Toleration{{Key: corev1.TaintNodeUnreachable, Operator: corev1.TolerationOpExists}},
			[]corev1.Toleration{{Key: corev1.TaintNodeUnreachable, Operator: corev1.TolerationOpExists}, notReady(300)}},
		{"NoSchedule toleration of the key does not count", DefaultConfig(),
			[]corev1.Toleration{{Key: corev1.TaintNodeNotReady, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule}},
			[]corev1.Toleration{{Key: corev1.TaintNodeNotReady, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule}, notReady(300), unreachable(300)}},
		{"tolerate everything", DefaultConfig(), []corev1.Toleration{{Operator: corev1.TolerationOpExists}},
			[]corev1.Toleration{{Operator: corev1.TolerationOpExists}}},
		{"tolerate every NoExecute taint", DefaultConfig(),
			[]corev1.Toleration{{Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute}},
			[]corev1.Toleration{{Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pod := newPod()
			pod.Spec.Tolerations = tc.have
			ResourceWith(tc.cfg).Strategy.PrepareForCreate(pod)
			if diff := cmp.Diff(tc.want, pod.Spec.Tolerations); diff != "" {
				t.Errorf("tolerations (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDefaultTolerationsOnUpdate: an update whose body leaves out the
// defaults gets them back, as upstream's admission plugin does on update;
// tolerations the body carries are kept.
func TestDefaultTolerationsOnUpdate(t *testing.T) {
	old := newPod()
	Resource().Strategy.PrepareForCreate(old)
	pod := newPod()
	Resource().Strategy.PrepareForUpdate(pod, old)
	if diff := cmp.Diff(old.Spec.Tolerations, pod.Spec.Tolerations); diff != "" {
		t.Errorf("tolerations after an update without them (-want +got):\n%s", diff)
	}
	if errs := Resource().Strategy.ValidateUpdate(pod, old); len(errs) > 0 {
		t.Errorf("update without the default tolerations is invalid: %v", errs)
	}
	kept := newPod()
	kept.Spec.Tolerations = append(kept.Spec.Tolerations, old.Spec.Tolerations...)
	sixty := int64(60)
	kept.Spec.Tolerations[0].TolerationSeconds = &sixty
	Resource().Strategy.PrepareForUpdate(kept, old)
	if n := len(kept.Spec.Tolerations); n != 2 {
		t.Errorf("update with its own tolerations has %d, want 2: %+v", n, kept.Spec.Tolerations)
	}
}
