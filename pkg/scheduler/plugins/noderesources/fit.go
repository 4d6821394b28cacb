package noderesources

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
)

// FitName is NodeResourcesFit's name in configuration.
const FitName = "NodeResourcesFit"

// ReasonTooManyPods is the reason for a node at its pod count.
const ReasonTooManyPods = "Too many pods"

const (
	fitPreFilterKey framework.StateKey = "PreFilter" + FitName
	fitPreScoreKey  framework.StateKey = "PreScore" + FitName
)

// Fit checks that a node has room for the pod's requests, and scores by
// the configured strategy.
type Fit struct {
	h             framework.Handle
	ignored       map[corev1.ResourceName]bool
	ignoredGroups map[string]bool
	scorer        allocationScorer
}

var (
	_ framework.PreFilterPlugin   = (*Fit)(nil)
	_ framework.FilterPlugin      = (*Fit)(nil)
	_ framework.PreScorePlugin    = (*Fit)(nil)
	_ framework.ScorePlugin       = (*Fit)(nil)
	_ framework.EnqueueExtensions = (*Fit)(nil)
)

// NewFit builds NodeResourcesFit from FitArgs (nil args: defaults).
func NewFit(raw json.RawMessage, h framework.Handle) (framework.Plugin, error) {
	var args FitArgs
	if err := framework.DecodeArgs(FitName, raw, &args); err != nil {
		return nil, err
	}
	args.Default()
	if err := args.Validate(); err != nil {
		return nil, err
	}
	s := args.ScoringStrategy
	pl := &Fit{
		h: h, ignored: map[corev1.ResourceName]bool{}, ignoredGroups: map[string]bool{},
		scorer: allocationScorer{resources: s.Resources},
	}
	for _, r := range args.IgnoredResources {
		pl.ignored[corev1.ResourceName(r)] = true
	}
	for _, g := range args.IgnoredResourceGroups {
		pl.ignoredGroups[g] = true
	}
	switch s.Type {
	case LeastAllocated:
		pl.scorer.score = weighted(s.Resources, leastAllocated)
	case MostAllocated:
		pl.scorer.score = weighted(s.Resources, mostAllocated)
	case RequestedToCapacityRatio:
		pl.scorer.score = ratioScorer(s.Resources, s.RequestedToCapacityRatio.Shape)
	}
	return pl, nil
}

// Name returns FitName.
func (*Fit) Name() string { return FitName }

// fitState is the pod's requests, computed once per cycle, and the
// extended resources to check, in name order.
type fitState struct {
	req     *framework.Resource
	scalars []corev1.ResourceName
}

// Clone shares the fields: they are never changed after PreFilter.
func (s *fitState) Clone() framework.StateData { return s }

func (pl *Fit) computeState(pod *corev1.Pod) *fitState {
	s := &fitState{req: framework.PodRequests(pod)}
	for name, v := range s.req.Scalar {
		if v > 0 && !pl.isIgnored(name) {
			s.scalars = append(s.scalars, name)
		}
	}
	slices.Sort(s.scalars)
	return s
}

// PreFilter computes the pod's requests (containers, init containers,
// overhead) for Filter.
func (pl *Fit) PreFilter(_ context.Context, state *framework.CycleState, pod *corev1.Pod) (*framework.PreFilterResult, *framework.Status) {
	state.Write(fitPreFilterKey, pl.computeState(pod))
	return nil, nil
}

// PreFilterExtensions returns nil: the pod's requests do not depend on
// other pods.
func (*Fit) PreFilterExtensions() framework.PreFilterExtensions { return nil }

// Filter lists every resource the node lacks for the pod.
func (pl *Fit) Filter(_ context.Context, state *framework.CycleState, pod *corev1.Pod, nodeInfo *framework.NodeInfo) *framework.Status {
	if nodeInfo.Node() == nil {
		return framework.AsStatus(fmt.Errorf("%s: node not found", FitName))
	}
	var s *fitState
	if v, err := state.Read(fitPreFilterKey); err == nil {
		s = v.(*fitState)
	} else {
		s = pl.computeState(pod)
	}
	if reasons := insufficient(s, nodeInfo); len(reasons) > 0 {
		return framework.NewStatus(framework.Unschedulable, reasons...)
	}
	return nil
}

// Insufficient returns the reasons the node cannot take pod: "Too many
// pods", then "Insufficient <resource>" for cpu, memory,
// ephemeral-storage and the extended resources in name order. Resources
// the pod does not request are not checked, nor ignored extended ones.
// Preemption may call it to explain a node.
func (pl *Fit) Insufficient(pod *corev1.Pod, ni *framework.NodeInfo) []string {
	return insufficient(pl.computeState(pod), ni)
}

func insufficient(s *fitState, ni *framework.NodeInfo) []string {
	var reasons []string
	req := s.req
	if int64(len(ni.Pods))+1 > ni.Allocatable.AllowedPodNumber {
		reasons = append(reasons, ReasonTooManyPods)
	}
	if req.MilliCPU > 0 && req.MilliCPU > ni.Allocatable.MilliCPU-ni.Requested.MilliCPU {
		reasons = append(reasons, "Insufficient "+string(corev1.ResourceCPU))
	}
	if req.Memory > 0 && req.Memory > ni.Allocatable.Memory-ni.Requested.Memory {
		reasons = append(reasons, "Insufficient "+string(corev1.ResourceMemory))
	}
	if req.EphemeralStorage > 0 && req.EphemeralStorage > ni.Allocatable.EphemeralStorage-ni.Requested.EphemeralStorage {
		reasons = append(reasons, "Insufficient "+string(corev1.ResourceEphemeralStorage))
	}
	for _, name := range s.scalars {
		if req.Scalar[name] > ni.Allocatable.Scalar[name]-ni.Requested.Scalar[name] {
			reasons = append(reasons, "Insufficient "+string(name))
		}
	}
	return reasons
}

// isIgnored reports an extended resource named in ignoredResources or in
// a domain of ignoredResourceGroups.
func (pl *Fit) isIgnored(name corev1.ResourceName) bool {
	if !isExtended(name) {
		return false
	}
	if pl.ignored[name] {
		return true
	}
	group, _, _ := strings.Cut(string(name), "/")
	return pl.ignoredGroups[group]
}

// isExtended reports a resource outside the platform's own domain that
// has a domain ("example.com/gpu"), as upstream's extended resources.
func isExtended(name corev1.ResourceName) bool {
	s := string(name)
	return strings.Contains(s, "/") && !strings.Contains(s, "platform.io/") && !strings.HasPrefix(s, "requests.")
}

// scoreState is the pod's requests for the scored resources.
type scoreState []int64

// Clone shares the slice: it is never changed after PreScore.
func (s scoreState) Clone() framework.StateData { return s }

// PreScore computes the pod's requests for the scored resources once.
func (pl *Fit) PreScore(_ context.Context, state *framework.CycleState, pod *corev1.Pod, _ []*framework.NodeInfo) *framework.Status {
	state.Write(fitPreScoreKey, scoreState(pl.scorer.podRequests(pod)))
	return nil
}

// Score scores the node by the strategy.
func (pl *Fit) Score(_ context.Context, state *framework.CycleState, pod *corev1.Pod, ni *framework.NodeInfo) (int64, *framework.Status) {
	return scoreNode(&pl.scorer, fitPreScoreKey, state, pod, ni), nil
}

// scoreNode is Score for both plugins.
func scoreNode(s *allocationScorer, key framework.StateKey, state *framework.CycleState, pod *corev1.Pod, ni *framework.NodeInfo) int64 {
	var req []int64
	if v, err := state.Read(key); err == nil {
		req = v.(scoreState)
	} else {
		req = s.podRequests(pod)
	}
	return s.nodeScore(ni, req)
}

// ScoreExtensions returns nil: scores are already 0..100.
func (*Fit) ScoreExtensions() framework.ScoreExtensions { return nil }

// EventsToRegister: a deleted pod frees resources; a new node or one whose
// allocatable grew may have room.
func (*Fit) EventsToRegister() []framework.ClusterEvent {
	return []framework.ClusterEvent{
		{Resource: framework.PodResource, ActionType: framework.Delete, Label: "PodDelete"},
		{Resource: framework.NodeResource, ActionType: framework.Add | framework.UpdateNodeAllocatable, Label: "NodeAddOrAllocatableChange"},
	}
}
