package nodeports

import (
	"context"
	"encoding/json"
	"errors"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
)

// Name is the plugin's name in configuration.
const Name = "NodePorts"

// ErrReason is the reason shown when a host port is taken.
const ErrReason = "node(s) didn't have free ports for the requested pod ports"

const stateKey framework.StateKey = "PreFilter" + Name

// wildcardIP is the address that stands for all of a node's addresses.
const wildcardIP = "0.0.0.0"

var errNoNode = errors.New("nodeports: node not found")

// NodePorts keeps pods off nodes where their host ports are taken.
type NodePorts struct{}

var (
	_ framework.PreFilterPlugin   = (*NodePorts)(nil)
	_ framework.FilterPlugin      = (*NodePorts)(nil)
	_ framework.EnqueueExtensions = (*NodePorts)(nil)
)

// New builds the plugin; it takes no arguments.
func New(args json.RawMessage, _ framework.Handle) (framework.Plugin, error) {
	if err := framework.DecodeArgs(Name, args, &struct{}{}); err != nil {
		return nil, err
	}
	return &NodePorts{}, nil
}

// Name returns Name.
func (*NodePorts) Name() string { return Name }

// preFilterState is the pod's host ports, normalized.
type preFilterState []framework.HostPort

// Clone shares the slice: it is never changed after PreFilter.
func (s preFilterState) Clone() framework.StateData { return s }

// HostPorts returns the host ports pod asks for, with the empty IP as
// 0.0.0.0 and the empty protocol as TCP, as NodeInfo records used ports.
func HostPorts(pod *corev1.Pod) []framework.HostPort {
	var out []framework.HostPort
	for i := range pod.Spec.Containers {
		for _, p := range pod.Spec.Containers[i].Ports {
			if p.HostPort <= 0 {
				continue
			}
			hp := framework.HostPort{IP: p.HostIP, Protocol: p.Protocol, Port: p.HostPort}
			if hp.IP == "" {
				hp.IP = wildcardIP
			}
			if hp.Protocol == "" {
				hp.Protocol = corev1.ProtocolTCP
			}
			out = append(out, hp)
		}
	}
	return out
}

// PreFilter records the pod's host ports; a pod with none skips Filter.
func (*NodePorts) PreFilter(_ context.Context, state *framework.CycleState, pod *corev1.Pod) (*framework.PreFilterResult, *framework.Status) {
	ports := HostPorts(pod)
	state.Write(stateKey, preFilterState(ports))
	if len(ports) == 0 {
		return nil, framework.NewStatus(framework.Skip)
	}
	return nil, nil
}

// PreFilterExtensions returns nil: the pod's own ports do not depend on
// the other pods.
func (*NodePorts) PreFilterExtensions() framework.PreFilterExtensions { return nil }

// Filter rejects the node if any of the pod's host ports is taken there.
func (*NodePorts) Filter(_ context.Context, state *framework.CycleState, pod *corev1.Pod, nodeInfo *framework.NodeInfo) *framework.Status {
	if nodeInfo.Node() == nil {
		return framework.AsStatus(errNoNode)
	}
	var ports []framework.HostPort
	if v, err := state.Read(stateKey); err == nil {
		ports = v.(preFilterState)
	} else {
		// PreFilter disabled or not run (a preemption "what if"): compute.
		ports = HostPorts(pod)
	}
	if !Fits(ports, nodeInfo.UsedPorts) {
		return framework.NewStatus(framework.Unschedulable, ErrReason)
	}
	return nil
}

// Fits reports whether none of want conflicts with used.
func Fits(want []framework.HostPort, used map[framework.HostPort]bool) bool {
	for _, hp := range want {
		if conflicts(hp, used) {
			return false
		}
	}
	return true
}

// conflicts applies the wildcard rule to one port.
func conflicts(hp framework.HostPort, used map[framework.HostPort]bool) bool {
	if hp.Port <= 0 || len(used) == 0 {
		return false
	}
	if hp.IP == wildcardIP {
		for u := range used {
			if u.Port == hp.Port && u.Protocol == hp.Protocol {
				return true
			}
		}
		return false
	}
	return used[hp] || used[framework.HostPort{IP: wildcardIP, Protocol: hp.Protocol, Port: hp.Port}]
}

// EventsToRegister: a deleted pod frees ports; a new or changed node may
// have them free.
func (*NodePorts) EventsToRegister() []framework.ClusterEvent {
	return []framework.ClusterEvent{
		{Resource: framework.PodResource, ActionType: framework.Delete, Label: "PodDelete"},
		{Resource: framework.NodeResource, ActionType: framework.Add | framework.Update, Label: "NodeAddOrUpdate"},
	}
}
