package nodename

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
	st "platform.io/platform/pkg/scheduler/internal/testing"
)

func TestFilter(t *testing.T) {
	tests := []struct {
		name string
		pod  *corev1.Pod
		node *corev1.Node
		want *framework.Status
	}{
		{name: "no node name", pod: st.MakePod().Name("p").Obj(), node: st.MakeNode().Name("a").Obj()},
		{name: "same node", pod: st.MakePod().Name("p").Node("a").Obj(), node: st.MakeNode().Name("a").Obj()},
		{
			name: "other node", pod: st.MakePod().Name("p").Node("b").Obj(), node: st.MakeNode().Name("a").Obj(),
			want: framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReason),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := New(nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := p.(*NodeName).Filter(context.Background(), framework.NewCycleState(), tt.pod, st.NewNodeInfo(tt.node))
			if !got.Equal(tt.want) {
				t.Errorf("Filter = %v %q, want %v %q", got.Code(), got.Reasons(), tt.want.Code(), tt.want.Reasons())
			}
		})
	}
}

func TestFilterWithoutNode(t *testing.T) {
	got := (&NodeName{}).Filter(context.Background(), nil, st.MakePod().Obj(), framework.NewNodeInfo())
	if got.Code() != framework.Error {
		t.Errorf("Filter on a node info without node = %v, want Error", got.Code())
	}
}

func TestNewArgs(t *testing.T) {
	tests := []struct {
		args    string
		wantErr bool
	}{
		{args: ""}, {args: "null"}, {args: "{}"},
		{args: `{"x": 1}`, wantErr: true}, {args: `[]`, wantErr: true}, {args: `{} {}`, wantErr: true},
	}
	for _, tt := range tests {
		_, err := New(json.RawMessage(tt.args), nil)
		if diff := cmp.Diff(tt.wantErr, err != nil); diff != "" {
			t.Errorf("New(%s) error %v (-want +got):\n%s", tt.args, err, diff)
		}
	}
}

func TestEvents(t *testing.T) {
	got := (&NodeName{}).EventsToRegister()
	if !got[0].Match(framework.ClusterEvent{Resource: framework.NodeResource, ActionType: framework.Add}) {
		t.Errorf("node add not registered: %+v", got)
	}
}
