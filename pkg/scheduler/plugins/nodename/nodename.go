package nodename

import (
	"context"
	"encoding/json"
	"errors"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
)

// Name is the plugin's name in configuration.
const Name = "NodeName"

// ErrReason is the reason shown when the pod names another node.
const ErrReason = "node(s) didn't match the requested node name"

var errNoNode = errors.New("nodename: node not found")

// NodeName keeps a pod that names a node off every other node.
type NodeName struct{}

var (
	_ framework.FilterPlugin      = (*NodeName)(nil)
	_ framework.EnqueueExtensions = (*NodeName)(nil)
)

// New builds the plugin; it takes no arguments.
func New(args json.RawMessage, _ framework.Handle) (framework.Plugin, error) {
	if err := framework.DecodeArgs(Name, args, &struct{}{}); err != nil {
		return nil, err
	}
	return &NodeName{}, nil
}

// Name returns Name.
func (*NodeName) Name() string { return Name }

// Filter accepts the node the pod names, or any node if it names none.
func (*NodeName) Filter(_ context.Context, _ *framework.CycleState, pod *corev1.Pod, nodeInfo *framework.NodeInfo) *framework.Status {
	node := nodeInfo.Node()
	if node == nil {
		return framework.AsStatus(errNoNode)
	}
	if pod.Spec.NodeName != "" && pod.Spec.NodeName != node.Name {
		return framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReason)
	}
	return nil
}

// EventsToRegister: only a new node (of the named name) can fit.
func (*NodeName) EventsToRegister() []framework.ClusterEvent {
	return []framework.ClusterEvent{{Resource: framework.NodeResource, ActionType: framework.Add, Label: "NodeAdd"}}
}
