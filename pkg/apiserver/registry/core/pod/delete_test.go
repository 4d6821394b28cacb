package pod

import (
	"testing"

	corev1 "platform.io/client/api/core/v1"
)

func TestGracePeriod(t *testing.T) {
	i64 := func(v int64) *int64 { return &v }
	bound := func(tgps *int64, phase corev1.PodPhase) *corev1.Pod {
		p := &corev1.Pod{}
		p.Spec.NodeName, p.Spec.TerminationGracePeriodSeconds, p.Status.Phase = "n1", tgps, phase
		return p
	}
	cases := []struct {
		name      string
		pod       *corev1.Pod
		requested *int64
		want      int64
	}{
		{"unscheduled", &corev1.Pod{}, nil, 0},
		{"unscheduled with request", &corev1.Pod{}, i64(30), 0},
		{"bound default", bound(nil, corev1.PodRunning), nil, 30},
		{"bound pod setting", bound(i64(5), corev1.PodRunning), nil, 5},
		{"request wins", bound(i64(5), corev1.PodRunning), i64(12), 12},
		{"request zero", bound(i64(5), corev1.PodRunning), i64(0), 0},
		{"succeeded", bound(nil, corev1.PodSucceeded), nil, 0},
		{"failed", bound(nil, corev1.PodFailed), nil, 0},
		{"negative", bound(i64(-1), corev1.PodRunning), nil, 1},
	}
	for _, c := range cases {
		if got := gracePeriod(c.pod, c.requested); got != c.want {
			t.Errorf("%s: got %d, want %d", c.name, got, c.want)
		}
	}
}
