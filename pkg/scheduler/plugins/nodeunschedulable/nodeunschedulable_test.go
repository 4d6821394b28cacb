package nodeunschedulable

import (
	"context"
	"encoding/json"
	"testing"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
	st "platform.io/platform/pkg/scheduler/internal/testing"
)

func TestFilter(t *testing.T) {
	unresolvable := framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReason)
	tests := []struct {
		name string
		pod  *corev1.Pod
		node *corev1.Node
		want *framework.Status
	}{
		{name: "schedulable node", pod: st.MakePod().Obj(), node: st.MakeNode().Name("a").Obj()},
		{name: "cordoned node", pod: st.MakePod().Obj(), node: st.MakeNode().Name("a").Unschedulable(true).Obj(), want: unresolvable},
		{
			name: "tolerates the taint",
			pod:  st.MakePod().Toleration(corev1.TaintNodeUnschedulable).Obj(),
			node: st.MakeNode().Name("a").Unschedulable(true).Obj(),
		},
		{
			name: "tolerates with effect NoSchedule and Exists",
			pod: st.MakePod().Tolerations([]corev1.Toleration{{
				Key: corev1.TaintNodeUnschedulable, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule,
			}}).Obj(),
			node: st.MakeNode().Name("a").Unschedulable(true).Obj(),
		},
		{
			name: "toleration of another effect does not count",
			pod: st.MakePod().Tolerations([]corev1.Toleration{{
				Key: corev1.TaintNodeUnschedulable, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute,
			}}).Obj(),
			node: st.MakeNode().Name("a").Unschedulable(true).Obj(),
			want: unresolvable,
		},
		{
			name: "tolerates everything",
			pod:  st.MakePod().Tolerations([]corev1.Toleration{{Operator: corev1.TolerationOpExists}}).Obj(),
			node: st.MakeNode().Name("a").Unschedulable(true).Obj(),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := New(nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := p.(framework.FilterPlugin).Filter(context.Background(), framework.NewCycleState(), tt.pod, st.NewNodeInfo(tt.node))
			if !got.Equal(tt.want) {
				t.Errorf("Filter = %v %q, want %v %q", got.Code(), got.Reasons(), tt.want.Code(), tt.want.Reasons())
			}
		})
	}
}

func TestNewRejectsArgs(t *testing.T) {
	if _, err := New(json.RawMessage(`{"unknown": true}`), nil); err == nil {
		t.Errorf("New accepted an unknown field")
	}
	if _, err := New(json.RawMessage(`{}`), nil); err != nil {
		t.Errorf("New({}) = %v", err)
	}
}

func TestEvents(t *testing.T) {
	ev := (&NodeUnschedulable{}).EventsToRegister()
	for _, e := range []framework.ClusterEvent{
		{Resource: framework.NodeResource, ActionType: framework.Add},
		{Resource: framework.NodeResource, ActionType: framework.UpdateNodeTaint},
	} {
		if !ev[0].Match(e) {
			t.Errorf("%+v not registered", e)
		}
	}
	if ev[0].Match(framework.ClusterEvent{Resource: framework.PodResource, ActionType: framework.Delete}) {
		t.Errorf("pod delete registered")
	}
}
