package nodeunschedulable

import (
	"context"
	"encoding/json"
	"errors"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
)

// Name is the plugin's name in configuration.
const Name = "NodeUnschedulable"

// ErrReason is the reason shown for an unschedulable node.
const ErrReason = "node(s) were unschedulable"

var errNoNode = errors.New("nodeunschedulable: node not found")

// NodeUnschedulable keeps pods off cordoned nodes.
type NodeUnschedulable struct{}

var (
	_ framework.FilterPlugin      = (*NodeUnschedulable)(nil)
	_ framework.EnqueueExtensions = (*NodeUnschedulable)(nil)
)

// New builds the plugin; it takes no arguments.
func New(args json.RawMessage, _ framework.Handle) (framework.Plugin, error) {
	if err := framework.DecodeArgs(Name, args, &struct{}{}); err != nil {
		return nil, err
	}
	return &NodeUnschedulable{}, nil
}

// Name returns Name.
func (*NodeUnschedulable) Name() string { return Name }

// Filter rejects a cordoned node unless the pod tolerates its taint.
func (*NodeUnschedulable) Filter(_ context.Context, _ *framework.CycleState, pod *corev1.Pod, nodeInfo *framework.NodeInfo) *framework.Status {
	node := nodeInfo.Node()
	if node == nil {
		return framework.AsStatus(errNoNode)
	}
	if !node.Spec.Unschedulable {
		return nil
	}
	taint := corev1.Taint{Key: corev1.TaintNodeUnschedulable, Effect: corev1.TaintEffectNoSchedule}
	if corev1.TolerationsTolerateTaint(pod.Spec.Tolerations, &taint) {
		return nil
	}
	return framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReason)
}

// EventsToRegister: a new node, or one uncordoned (a spec change that the
// queue classes with taint changes, as upstream does).
func (*NodeUnschedulable) EventsToRegister() []framework.ClusterEvent {
	return []framework.ClusterEvent{{Resource: framework.NodeResource, ActionType: framework.Add | framework.UpdateNodeTaint, Label: "NodeAddOrTaintChange"}}
}
