package nodeports

import (
	"context"
	"encoding/json"
	"testing"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
	st "platform.io/platform/pkg/scheduler/internal/testing"
)

// port builds one container port "proto/ip/hostPort".
func port(proto corev1.Protocol, ip string, hostPort int32) corev1.ContainerPort {
	return corev1.ContainerPort{Protocol: proto, HostIP: ip, HostPort: hostPort, ContainerPort: 80}
}

func podWith(ports ...corev1.ContainerPort) *corev1.Pod {
	return st.MakePod().Name("p").ContainerPort(ports).Obj()
}

func TestFilter(t *testing.T) {
	conflict := framework.NewStatus(framework.Unschedulable, ErrReason)
	const tcp, udp = corev1.ProtocolTCP, corev1.ProtocolUDP
	tests := []struct {
		name     string
		pod      *corev1.Pod
		existing *corev1.Pod
		want     *framework.Status
	}{
		{name: "nothing running", pod: podWith(port(tcp, "", 80))},
		{name: "no host ports", pod: st.MakePod().Name("p").Obj(), existing: podWith(port(tcp, "", 80))},
		{name: "other port", pod: podWith(port(tcp, "127.0.0.1", 8080)), existing: podWith(port(tcp, "127.0.0.1", 9090))},
		{name: "same port other protocol", pod: podWith(port(udp, "127.0.0.1", 8080)), existing: podWith(port(tcp, "127.0.0.1", 8080))},
		{name: "same port other ip", pod: podWith(port(tcp, "127.0.0.2", 8080)), existing: podWith(port(tcp, "127.0.0.1", 8080))},
		{name: "same ip port protocol", pod: podWith(port(tcp, "127.0.0.1", 8080)), existing: podWith(port(tcp, "127.0.0.1", 8080)), want: conflict},
		{name: "empty protocol is TCP", pod: podWith(port("", "127.0.0.1", 8080)), existing: podWith(port(tcp, "127.0.0.1", 8080)), want: conflict},
		{name: "wildcard wanted, specific used", pod: podWith(port(tcp, "0.0.0.0", 8001)), existing: podWith(port(tcp, "127.0.0.1", 8001)), want: conflict},
		{name: "empty ip wanted, specific used", pod: podWith(port(tcp, "", 8001)), existing: podWith(port(tcp, "10.0.0.1", 8001)), want: conflict},
		{name: "specific wanted, wildcard used", pod: podWith(port(tcp, "127.0.0.1", 8001)), existing: podWith(port(tcp, "0.0.0.0", 8001)), want: conflict},
		{name: "wildcard both sides other protocol", pod: podWith(port(udp, "0.0.0.0", 8001)), existing: podWith(port(tcp, "0.0.0.0", 8001))},
		{
			name:     "second of several ports conflicts",
			pod:      podWith(port(tcp, "", 8001), port(udp, "10.0.0.1", 53)),
			existing: podWith(port(udp, "", 53)),
			want:     conflict,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			node := st.MakeNode().Name("n").Obj()
			ni := st.NewNodeInfo(node)
			if tt.existing != nil {
				ni.AddPod(tt.existing)
			}
			p, err := New(nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			pl := p.(*NodePorts)
			state := framework.NewCycleState()
			_, s := pl.PreFilter(context.Background(), state, tt.pod)
			if len(tt.pod.Spec.Containers) == 0 && !s.IsSkip() {
				t.Errorf("PreFilter of a pod without ports = %v, want Skip", s.Code())
			}
			if got := pl.Filter(context.Background(), state, tt.pod, ni); !got.Equal(tt.want) {
				t.Errorf("Filter = %v %q, want %v %q", got.Code(), got.Reasons(), tt.want.Code(), tt.want.Reasons())
			}
			// Without PreFilter's state (preemption's what-if) the answer is the same.
			if got := pl.Filter(context.Background(), framework.NewCycleState(), tt.pod, ni); !got.Equal(tt.want) {
				t.Errorf("Filter without state = %v %q, want %v %q", got.Code(), got.Reasons(), tt.want.Code(), tt.want.Reasons())
			}
		})
	}
}

func TestHostPorts(t *testing.T) {
	pod := podWith(port("", "", 80), corev1.ContainerPort{ContainerPort: 81}, port(corev1.ProtocolUDP, "10.0.0.1", 53))
	got := HostPorts(pod)
	want := []framework.HostPort{{IP: "0.0.0.0", Protocol: corev1.ProtocolTCP, Port: 80}, {IP: "10.0.0.1", Protocol: corev1.ProtocolUDP, Port: 53}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("HostPorts = %+v, want %+v", got, want)
	}
}

func TestNewRejectsArgs(t *testing.T) {
	if _, err := New(json.RawMessage(`{"ports": 1}`), nil); err == nil {
		t.Errorf("New accepted an unknown field")
	}
}

func TestEvents(t *testing.T) {
	ev := (&NodePorts{}).EventsToRegister()
	matched := func(e framework.ClusterEvent) bool {
		for _, r := range ev {
			if r.Match(e) {
				return true
			}
		}
		return false
	}
	if !matched(framework.ClusterEvent{Resource: framework.PodResource, ActionType: framework.Delete}) ||
		!matched(framework.ClusterEvent{Resource: framework.NodeResource, ActionType: framework.Add}) {
		t.Errorf("events %+v miss pod delete or node add", ev)
	}
	if matched(framework.ClusterEvent{Resource: framework.PodResource, ActionType: framework.Add}) {
		t.Errorf("pod add registered")
	}
}
