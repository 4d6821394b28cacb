package queuesort

import (
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
)

func qpi(prio *int32, ts int64) *framework.QueuedPodInfo {
	return &framework.QueuedPodInfo{PodInfo: &framework.PodInfo{Pod: &corev1.Pod{Spec: corev1.PodSpec{Priority: prio}}},
		Timestamp: time.Unix(ts, 0)}
}

func ptr(v int32) *int32 { return &v }

func TestLess(t *testing.T) {
	tests := []struct {
		name string
		a, b *framework.QueuedPodInfo
		want bool
	}{
		{"higher priority first", qpi(ptr(10), 5), qpi(ptr(1), 1), true},
		{"lower priority later", qpi(ptr(1), 1), qpi(ptr(10), 5), false},
		{"equal priority, older first", qpi(ptr(3), 1), qpi(ptr(3), 2), true},
		{"equal priority, newer later", qpi(ptr(3), 2), qpi(ptr(3), 1), false},
		{"unset is zero", qpi(nil, 1), qpi(ptr(0), 2), true},
		{"negative below unset", qpi(ptr(-1), 1), qpi(nil, 2), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := (PrioritySort{}).Less(tc.a, tc.b); got != tc.want {
				t.Errorf("Less = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestNewRejectsArgs(t *testing.T) {
	if _, err := New([]byte(`{"x":1}`), nil); err == nil {
		t.Error("arguments accepted")
	}
	if _, err := New(nil, nil); err != nil {
		t.Errorf("no arguments: %v", err)
	}
}
