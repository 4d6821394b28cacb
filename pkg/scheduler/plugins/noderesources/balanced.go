package noderesources

import (
	"context"
	"encoding/json"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
)

// BalancedAllocationName is NodeResourcesBalancedAllocation's name in
// configuration.
const BalancedAllocationName = "NodeResourcesBalancedAllocation"

const balancedPreScoreKey framework.StateKey = "PreScore" + BalancedAllocationName

// BalancedAllocation favours nodes whose resources would be used evenly
// with the pod there. It uses plain requests (no non-zero defaults).
type BalancedAllocation struct {
	h      framework.Handle
	scorer allocationScorer
}

var (
	_ framework.PreScorePlugin = (*BalancedAllocation)(nil)
	_ framework.ScorePlugin    = (*BalancedAllocation)(nil)
)

// NewBalancedAllocation builds the plugin from BalancedAllocationArgs
// (nil args: cpu and memory).
func NewBalancedAllocation(raw json.RawMessage, h framework.Handle) (framework.Plugin, error) {
	var args BalancedAllocationArgs
	if err := framework.DecodeArgs(BalancedAllocationName, raw, &args); err != nil {
		return nil, err
	}
	args.Default()
	if err := args.Validate(); err != nil {
		return nil, err
	}
	return &BalancedAllocation{h: h, scorer: allocationScorer{resources: args.Resources, useRequested: true, score: scoreFunc{kind: kindBalanced}}}, nil
}

// Name returns BalancedAllocationName.
func (*BalancedAllocation) Name() string { return BalancedAllocationName }

// PreScore computes the pod's requests for the balanced resources once.
func (pl *BalancedAllocation) PreScore(_ context.Context, state *framework.CycleState, pod *corev1.Pod, _ []*framework.NodeInfo) *framework.Status {
	state.Write(balancedPreScoreKey, scoreState(pl.scorer.podRequests(pod)))
	return nil
}

// Score is 100 * (1 - standard deviation of the requested fractions).
func (pl *BalancedAllocation) Score(_ context.Context, state *framework.CycleState, pod *corev1.Pod, ni *framework.NodeInfo) (int64, *framework.Status) {
	return scoreNode(&pl.scorer, balancedPreScoreKey, state, pod, ni), nil
}

// ScoreExtensions returns nil: scores are already 0..100.
func (*BalancedAllocation) ScoreExtensions() framework.ScoreExtensions { return nil }
