package nodeaffinity

import (
	"context"
	"encoding/json"
	"fmt"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
)

// Name is the plugin's name in configuration.
const Name = "NodeAffinity"

// The reasons Filter and PreFilter give.
const (
	// ErrReasonPod: the node does not match the pod's selector or affinity.
	ErrReasonPod = "node(s) didn't match Pod's node affinity/selector"
	// ErrReasonEnforced: the node does not match the profile's addedAffinity.
	ErrReasonEnforced = "node(s) didn't match scheduler-enforced node affinity"
	// ErrReasonConflict: the required terms name no node in common.
	ErrReasonConflict = "pod affinity terms conflict"
)

const preScoreKey framework.StateKey = "PreScore" + Name

// NodeAffinity filters and scores nodes by the pod's node affinity.
type NodeAffinity struct {
	h             framework.Handle
	addedRequired *corev1.NodeSelector
	addedTerms    []corev1.PreferredSchedulingTerm
}

var (
	_ framework.PreFilterPlugin   = (*NodeAffinity)(nil)
	_ framework.FilterPlugin      = (*NodeAffinity)(nil)
	_ framework.PreScorePlugin    = (*NodeAffinity)(nil)
	_ framework.ScorePlugin       = (*NodeAffinity)(nil)
	_ framework.ScoreExtensions   = (*NodeAffinity)(nil)
	_ framework.EnqueueExtensions = (*NodeAffinity)(nil)
)

// New builds the plugin from Args (nil args: no added affinity).
func New(raw json.RawMessage, h framework.Handle) (framework.Plugin, error) {
	var args Args
	if err := framework.DecodeArgs(Name, raw, &args); err != nil {
		return nil, err
	}
	if err := args.Validate(); err != nil {
		return nil, err
	}
	pl := &NodeAffinity{h: h}
	if a := args.AddedAffinity; a != nil {
		pl.addedRequired = a.RequiredDuringSchedulingIgnoredDuringExecution
		pl.addedTerms = a.PreferredDuringSchedulingIgnoredDuringExecution
	}
	return pl, nil
}

// Name returns Name.
func (*NodeAffinity) Name() string { return Name }

// requiredTerms returns the pod's required node affinity terms, or nil.
func requiredTerms(pod *corev1.Pod) *corev1.NodeSelector {
	a := pod.Spec.Affinity
	if a == nil || a.NodeAffinity == nil {
		return nil
	}
	return a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution
}

// PreFilter skips Filter for a pod with nothing to check, and narrows the
// nodes to those named when every required term has a matchFields
// requirement "metadata.name In (...)": the terms are ORed, so the union
// over terms of the intersection within each term. Terms that name no
// common node make the pod unschedulable.
func (pl *NodeAffinity) PreFilter(_ context.Context, _ *framework.CycleState, pod *corev1.Pod) (*framework.PreFilterResult, *framework.Status) {
	req := requiredTerms(pod)
	if req == nil && pl.addedRequired == nil && len(pod.Spec.NodeSelector) == 0 {
		return nil, framework.NewStatus(framework.Skip)
	}
	if req == nil || len(req.NodeSelectorTerms) == 0 {
		return nil, nil
	}
	var union map[string]bool
	for _, t := range req.NodeSelectorTerms {
		names := namedNodes(&t)
		if names == nil {
			return nil, nil // this term allows any name
		}
		if union == nil {
			union = map[string]bool{}
		}
		for n := range names {
			union[n] = true
		}
	}
	if len(union) == 0 {
		return nil, framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonConflict)
	}
	return &framework.PreFilterResult{NodeNames: union}, nil
}

// namedNodes returns the intersection of the term's "metadata.name In"
// requirements, or nil when it has none.
func namedNodes(t *corev1.NodeSelectorTerm) map[string]bool {
	var out map[string]bool
	for _, r := range t.MatchFields {
		if r.Key != nameField || r.Operator != corev1.NodeSelectorOpIn {
			continue
		}
		next := map[string]bool{}
		for _, v := range r.Values {
			if out == nil || out[v] {
				next[v] = true
			}
		}
		out = next
	}
	return out
}

// PreFilterExtensions returns nil: other pods do not change the answer.
func (*NodeAffinity) PreFilterExtensions() framework.PreFilterExtensions { return nil }

// Filter checks the added affinity, then the pod's node selector and
// required node affinity.
func (pl *NodeAffinity) Filter(_ context.Context, _ *framework.CycleState, pod *corev1.Pod, nodeInfo *framework.NodeInfo) *framework.Status {
	node := nodeInfo.Node()
	if node == nil {
		return framework.AsStatus(fmt.Errorf("%s: node not found", Name))
	}
	if pl.addedRequired != nil && !pl.addedRequired.Matches(node) {
		return framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonEnforced)
	}
	if !corev1.RequiredNodeAffinityMatches(pod, node) {
		return framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonPod)
	}
	return nil
}

// preScoreState is the preferred terms to score by: the added ones, then
// the pod's.
type preScoreState []corev1.PreferredSchedulingTerm

// Clone shares the slice: it is never changed after PreScore.
func (s preScoreState) Clone() framework.StateData { return s }

func (pl *NodeAffinity) preferredTerms(pod *corev1.Pod) preScoreState {
	terms := append(preScoreState(nil), pl.addedTerms...)
	if a := pod.Spec.Affinity; a != nil && a.NodeAffinity != nil {
		terms = append(terms, a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution...)
	}
	return terms
}

// PreScore collects the preferred terms; with none, Score is skipped.
func (pl *NodeAffinity) PreScore(_ context.Context, state *framework.CycleState, pod *corev1.Pod, _ []*framework.NodeInfo) *framework.Status {
	terms := pl.preferredTerms(pod)
	state.Write(preScoreKey, terms)
	if len(terms) == 0 {
		return framework.NewStatus(framework.Skip)
	}
	return nil
}

// Score sums the weights of the preferred terms the node matches.
func (pl *NodeAffinity) Score(_ context.Context, state *framework.CycleState, pod *corev1.Pod, ni *framework.NodeInfo) (int64, *framework.Status) {
	node := ni.Node()
	var terms preScoreState
	if v, err := state.Read(preScoreKey); err == nil {
		terms = v.(preScoreState)
	} else {
		terms = pl.preferredTerms(pod)
	}
	var sum int64
	for i := range terms {
		if terms[i].Weight != 0 && terms[i].Preference.Matches(node) {
			sum += int64(terms[i].Weight)
		}
	}
	return sum, nil
}

// ScoreExtensions returns the plugin itself.
func (pl *NodeAffinity) ScoreExtensions() framework.ScoreExtensions { return pl }

// NormalizeScore scales the sums so that the best node gets 100.
func (*NodeAffinity) NormalizeScore(_ context.Context, _ *framework.CycleState, _ *corev1.Pod, scores framework.NodeScoreList) *framework.Status {
	framework.DefaultNormalizeScore(framework.MaxNodeScore, false, scores)
	return nil
}

// EventsToRegister: a new node, or a node whose labels changed.
func (*NodeAffinity) EventsToRegister() []framework.ClusterEvent {
	return []framework.ClusterEvent{{Resource: framework.NodeResource, ActionType: framework.Add | framework.UpdateNodeLabel, Label: "NodeAddOrLabelChange"}}
}
