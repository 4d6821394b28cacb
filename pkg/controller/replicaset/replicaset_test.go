package replicaset

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

var t0 = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

func mkPod(name string, ready bool, readyFor time.Duration, l map[string]string) *corev1.Pod {
	p := &corev1.Pod{}
	p.Name = name
	p.Labels = l
	p.Spec.NodeName = "n"
	p.Status.Phase = corev1.PodRunning
	if ready {
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: meta.NewTime(t0.Add(-readyFor))}}
	}
	return p
}

func TestCalculateStatus(t *testing.T) {
	full := map[string]string{"app": "a", "tier": "web"}
	part := map[string]string{"app": "a"}
	failure := appsv1.ReplicaSetCondition{Type: appsv1.ReplicaSetReplicaFailure, Status: corev1.ConditionTrue, Reason: ReasonFailedCreate, Message: "quota", LastTransitionTime: meta.NewTime(t0)}
	tests := []struct {
		name      string
		replicas  int32
		minReady  int32
		pods      []*corev1.Pod
		manageErr error
		before    []appsv1.ReplicaSetCondition
		want      appsv1.ReplicaSetStatus
	}{
		{"counts", 3, 10, []*corev1.Pod{
			mkPod("a", true, time.Minute, full), mkPod("b", true, time.Second, full), mkPod("c", false, 0, part),
		}, nil, nil, appsv1.ReplicaSetStatus{Replicas: 3, FullyLabeledReplicas: 2, ReadyReplicas: 2, AvailableReplicas: 1, ObservedGeneration: 7}},
		{"create failure", 3, 0, nil, errors.New("quota"), nil, appsv1.ReplicaSetStatus{ObservedGeneration: 7, Conditions: []appsv1.ReplicaSetCondition{failure}}},
		{"failure cleared", 0, 0, nil, nil, []appsv1.ReplicaSetCondition{failure}, appsv1.ReplicaSetStatus{ObservedGeneration: 7}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rs := &appsv1.ReplicaSet{}
			rs.Generation = 7
			rs.Spec.Replicas = &tc.replicas
			rs.Spec.MinReadySeconds = tc.minReady
			rs.Spec.Template.Labels = full
			rs.Status.Conditions = tc.before
			got := calculateStatus(rs, tc.pods, tc.manageErr, t0)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("status (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPodsToDelete(t *testing.T) {
	pods := []*corev1.Pod{
		mkPod("old-ready", true, time.Hour, nil),
		mkPod("not-ready", false, 0, nil),
		mkPod("new-ready", true, time.Minute, nil),
	}
	unassigned := mkPod("unassigned", false, 0, nil)
	unassigned.Spec.NodeName = ""
	pods = append(pods, unassigned)
	var got []string
	for _, p := range PodsToDelete(pods, 3) {
		got = append(got, p.Name)
	}
	if diff := cmp.Diff([]string{"unassigned", "not-ready", "new-ready"}, got); diff != "" {
		t.Errorf("deleted (-want +got):\n%s", diff)
	}
	if len(PodsToDelete(pods, 10)) != 4 {
		t.Errorf("more than there are")
	}
}

func TestOptionsValidate(t *testing.T) {
	o := NewOptions()
	if o.Workers != 5 || len(o.Validate()) != 0 {
		t.Fatalf("defaults %+v", o)
	}
	o.Workers = 0
	if errs := o.Validate(); len(errs) != 1 {
		t.Errorf("zero workers accepted")
	}
}
