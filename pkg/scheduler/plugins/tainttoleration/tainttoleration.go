package tainttoleration

import (
	"context"
	"encoding/json"
	"fmt"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
)

// Name is the plugin's name in configuration.
const Name = "TaintToleration"

const preScoreKey framework.StateKey = "PreScore" + Name

// TaintToleration filters by hard taints and scores by soft ones.
type TaintToleration struct {
	h framework.Handle
}

var (
	_ framework.FilterPlugin      = (*TaintToleration)(nil)
	_ framework.PreScorePlugin    = (*TaintToleration)(nil)
	_ framework.ScorePlugin       = (*TaintToleration)(nil)
	_ framework.ScoreExtensions   = (*TaintToleration)(nil)
	_ framework.EnqueueExtensions = (*TaintToleration)(nil)
)

// New builds the plugin; it takes no arguments.
func New(args json.RawMessage, h framework.Handle) (framework.Plugin, error) {
	if err := framework.DecodeArgs(Name, args, &struct{}{}); err != nil {
		return nil, err
	}
	return &TaintToleration{h: h}, nil
}

// Name returns Name.
func (*TaintToleration) Name() string { return Name }

// hard reports the effects Filter enforces.
func hard(t *corev1.Taint) bool {
	return t.Effect == corev1.TaintEffectNoSchedule || t.Effect == corev1.TaintEffectNoExecute
}

// Filter rejects the node when one of its NoSchedule or NoExecute taints
// is not tolerated, naming the first such taint.
func (*TaintToleration) Filter(_ context.Context, _ *framework.CycleState, pod *corev1.Pod, nodeInfo *framework.NodeInfo) *framework.Status {
	node := nodeInfo.Node()
	if node == nil {
		return framework.AsStatus(fmt.Errorf("%s: node not found", Name))
	}
	taint, untolerated := corev1.FindUntoleratedTaint(node.Spec.Taints, pod.Spec.Tolerations, hard)
	if !untolerated {
		return nil
	}
	return framework.NewStatus(framework.UnschedulableAndUnresolvable,
		"node(s) had untolerated taint {"+taint.Key+": "+taint.Value+"}")
}

// preScoreState is the pod's tolerations that can tolerate
// PreferNoSchedule taints.
type preScoreState []corev1.Toleration

// Clone shares the slice: it is never changed after PreScore.
func (s preScoreState) Clone() framework.StateData { return s }

// softTolerations returns the tolerations with no effect or
// PreferNoSchedule.
func softTolerations(tols []corev1.Toleration) preScoreState {
	var out preScoreState
	for _, t := range tols {
		if t.Effect == "" || t.Effect == corev1.TaintEffectPreferNoSchedule {
			out = append(out, t)
		}
	}
	return out
}

// PreScore keeps the pod's soft tolerations for Score.
func (*TaintToleration) PreScore(_ context.Context, state *framework.CycleState, pod *corev1.Pod, _ []*framework.NodeInfo) *framework.Status {
	state.Write(preScoreKey, softTolerations(pod.Spec.Tolerations))
	return nil
}

// Score counts the node's PreferNoSchedule taints the pod does not
// tolerate; NormalizeScore turns fewer into higher.
func (pl *TaintToleration) Score(_ context.Context, state *framework.CycleState, pod *corev1.Pod, ni *framework.NodeInfo) (int64, *framework.Status) {
	taints := ni.Node().Spec.Taints
	if len(taints) == 0 {
		return 0, nil
	}
	var tols preScoreState
	if v, err := state.Read(preScoreKey); err == nil {
		tols = v.(preScoreState)
	} else {
		tols = softTolerations(pod.Spec.Tolerations)
	}
	var n int64
	for i := range taints {
		t := &taints[i]
		if t.Effect == corev1.TaintEffectPreferNoSchedule && !corev1.TolerationsTolerateTaint(tols, t) {
			n++
		}
	}
	return n, nil
}

// ScoreExtensions returns the plugin itself.
func (pl *TaintToleration) ScoreExtensions() framework.ScoreExtensions { return pl }

// NormalizeScore maps counts to [0, 100], reversed: the node with the most
// untolerated soft taints gets 0, nodes with none get 100.
func (*TaintToleration) NormalizeScore(_ context.Context, _ *framework.CycleState, _ *corev1.Pod, scores framework.NodeScoreList) *framework.Status {
	framework.DefaultNormalizeScore(framework.MaxNodeScore, true, scores)
	return nil
}

// EventsToRegister: a new node, or a node whose taints changed.
func (*TaintToleration) EventsToRegister() []framework.ClusterEvent {
	return []framework.ClusterEvent{{Resource: framework.NodeResource, ActionType: framework.Add | framework.UpdateNodeTaint, Label: "NodeAddOrTaintChange"}}
}
