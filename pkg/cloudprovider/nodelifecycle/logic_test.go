package nodelifecycle

import (
	"testing"

	corev1 "platform.io/client/api/core/v1"
)

func TestDecide(t *testing.T) {
	mk := func(ready corev1.ConditionStatus, tainted bool) *corev1.Node {
		n := &corev1.Node{Status: corev1.NodeStatus{Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: ready}}}}
		if tainted {
			n.Spec.Taints = []corev1.Taint{{Key: corev1.TaintNodeShutdown, Effect: corev1.TaintEffectNoSchedule}}
		}
		return n
	}
	for _, tc := range []struct {
		name string
		node *corev1.Node
		p    probe
		want action
	}{
		{"ready running", mk(corev1.ConditionTrue, false), probe{exists: true}, none},
		{"ready tainted", mk(corev1.ConditionTrue, true), probe{exists: true, shutdown: true}, removeShutdownTaint},
		{"not ready, gone", mk(corev1.ConditionUnknown, false), probe{}, deleteNode},
		{"not ready, gone, tainted", mk(corev1.ConditionFalse, true), probe{}, deleteNode},
		{"not ready, shut down", mk(corev1.ConditionUnknown, false), probe{exists: true, shutdown: true}, addShutdownTaint},
		{"not ready, shut down, tainted", mk(corev1.ConditionUnknown, true), probe{exists: true, shutdown: true}, none},
		{"not ready, running again", mk(corev1.ConditionUnknown, true), probe{exists: true}, removeShutdownTaint},
		{"not ready, running", mk(corev1.ConditionFalse, false), probe{exists: true}, none},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := decide(tc.node, tc.p); got != tc.want {
				t.Errorf("decide = %v, want %v", got, tc.want)
			}
		})
	}
}
