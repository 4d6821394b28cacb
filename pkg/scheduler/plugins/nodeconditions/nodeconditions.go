package nodeconditions

import (
	"context"
	"encoding/json"
	"fmt"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
)

// Name is the plugin's name in configuration.
const Name = "NodeConditions"

// The reasons Filter gives, as upstream's CheckNodeCondition and pressure
// predicates worded them.
const (
	ErrReasonNotReady           = "node(s) were not ready"
	ErrReasonNetworkUnavailable = "node(s) had network unavailable"
	ErrReasonMemoryPressure     = "node(s) had memory pressure"
	ErrReasonDiskPressure       = "node(s) had disk pressure"
	ErrReasonPIDPressure        = "node(s) had pid pressure"
)

// NodeConditions keeps pods off nodes that are not ready or under
// pressure.
type NodeConditions struct{}

var (
	_ framework.FilterPlugin      = (*NodeConditions)(nil)
	_ framework.EnqueueExtensions = (*NodeConditions)(nil)
)

// New builds the plugin; it takes no arguments.
func New(args json.RawMessage, _ framework.Handle) (framework.Plugin, error) {
	if err := framework.DecodeArgs(Name, args, &struct{}{}); err != nil {
		return nil, err
	}
	return &NodeConditions{}, nil
}

// Name returns Name.
func (*NodeConditions) Name() string { return Name }

// Filter lists every condition of the node that keeps the pod off: the
// node's condition taints (framework.NodeInfo.ConditionTaints) that the
// pod does not tolerate, where memory pressure keeps off BestEffort pods
// only.
func (*NodeConditions) Filter(_ context.Context, _ *framework.CycleState, pod *corev1.Pod, nodeInfo *framework.NodeInfo) *framework.Status {
	if nodeInfo.Node() == nil {
		return framework.AsStatus(fmt.Errorf("%s: node not found", Name))
	}
	taints := nodeInfo.ConditionTaints
	if len(taints) == 0 {
		return nil
	}
	var reasons []string
	for _, t := range taints {
		if t == corev1.TaintNodeMemoryPressure && !IsBestEffort(pod) {
			continue
		}
		if !tolerates(pod.Spec.Tolerations, t) {
			reasons = append(reasons, taintReasons[t])
		}
	}
	if len(reasons) > 0 {
		return framework.NewStatus(framework.UnschedulableAndUnresolvable, reasons...)
	}
	return nil
}

// taintReasons maps each condition taint to the reason Filter gives.
var taintReasons = map[string]string{
	corev1.TaintNodeNotReady:           ErrReasonNotReady,
	corev1.TaintNodeUnreachable:        ErrReasonNotReady,
	corev1.TaintNodeNetworkUnavailable: ErrReasonNetworkUnavailable,
	corev1.TaintNodeMemoryPressure:     ErrReasonMemoryPressure,
	corev1.TaintNodeDiskPressure:       ErrReasonDiskPressure,
	corev1.TaintNodePIDPressure:        ErrReasonPIDPressure,
}

// tolerates reports a toleration of the key's NoSchedule taint, or of its
// NoExecute taint without a time bound.
func tolerates(tols []corev1.Toleration, key string) bool {
	noSchedule := corev1.Taint{Key: key, Effect: corev1.TaintEffectNoSchedule}
	noExecute := corev1.Taint{Key: key, Effect: corev1.TaintEffectNoExecute}
	for i := range tols {
		t := &tols[i]
		if t.ToleratesTaint(&noSchedule) || (t.TolerationSeconds == nil && t.ToleratesTaint(&noExecute)) {
			return true
		}
	}
	return false
}

// IsBestEffort reports upstream's BestEffort QoS class: no non-zero cpu or
// memory request or limit in any container, init container, or the
// pod-level resources.
func IsBestEffort(pod *corev1.Pod) bool {
	sets := func(rr *corev1.ResourceRequirements) bool {
		for _, rl := range []corev1.ResourceList{rr.Requests, rr.Limits} {
			for _, name := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
				if q, ok := rl[name]; ok && !q.IsZero() {
					return true
				}
			}
		}
		return false
	}
	if pod.Spec.Resources != nil && sets(pod.Spec.Resources) {
		return false
	}
	for _, cs := range [][]corev1.Container{pod.Spec.InitContainers, pod.Spec.Containers} {
		for i := range cs {
			if sets(&cs[i].Resources) {
				return false
			}
		}
	}
	return true
}

// EventsToRegister: a new node, or a node whose conditions changed.
func (*NodeConditions) EventsToRegister() []framework.ClusterEvent {
	return []framework.ClusterEvent{{Resource: framework.NodeResource, ActionType: framework.Add | framework.UpdateNodeCondition, Label: "NodeAddOrConditionChange"}}
}
