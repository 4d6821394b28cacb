package selectorspread

import (
	"context"
	"encoding/json"
	"fmt"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/scheduler/framework"
)

// Name is the plugin's name in profiles.
const Name = "SelectorSpread"

// The node labels that name a node's zone and region; the upstream
// spelling is read when ours is absent.
const (
	LabelZone           = "topology.platform.io/zone"
	LabelRegion         = "topology.platform.io/region"
	LabelUpstreamZone   = "topology.kubernetes.io/zone"
	LabelUpstreamRegion = "topology.kubernetes.io/region"
)

// zoneWeighting is the share of the score that comes from the zone, as
// upstream: spreading across zones matters more than across nodes.
const zoneWeighting = 2.0 / 3.0

const preScoreStateKey framework.StateKey = "PreScore" + Name

// Args are the plugin's arguments; it has none, and rejects any field.
type Args struct{}

// Plugin is the SelectorSpread plugin.
type Plugin struct {
	h framework.Handle
}

var (
	_ framework.PreScorePlugin    = (*Plugin)(nil)
	_ framework.ScorePlugin       = (*Plugin)(nil)
	_ framework.EnqueueExtensions = (*Plugin)(nil)
)

// New builds the plugin; args must be empty (nil, null or {}).
func New(args json.RawMessage, h framework.Handle) (framework.Plugin, error) {
	if err := framework.DecodeArgs(Name, args, &Args{}); err != nil {
		return nil, err
	}
	return &Plugin{h: h}, nil
}

// Name returns Name.
func (pl *Plugin) Name() string { return Name }

// EventsToRegister returns none: a score plugin never rejects a pod, so no
// event needs to requeue pods on its account.
func (pl *Plugin) EventsToRegister() []framework.ClusterEvent { return []framework.ClusterEvent{} }

// preScoreState names the controller whose pods are counted.
type preScoreState struct {
	owner meta.UID
}

// Clone returns s: it never changes.
func (s *preScoreState) Clone() framework.StateData { return s }

// PreScore records the pod's controller. It skips pods with topology
// spread constraints (PodTopologySpread handles those, as upstream) and
// pods without a controller.
func (pl *Plugin) PreScore(_ context.Context, cs *framework.CycleState, pod *corev1.Pod, _ []*framework.NodeInfo) *framework.Status {
	if len(pod.Spec.TopologySpreadConstraints) > 0 {
		return framework.NewStatus(framework.Skip)
	}
	owner := controllerUID(pod)
	if owner == "" {
		return framework.NewStatus(framework.Skip)
	}
	cs.Write(preScoreStateKey, &preScoreState{owner: owner})
	return nil
}

// Score counts the node's running (not terminating) pods of the same
// controller in the pod's namespace. NormalizeScore turns it around.
func (pl *Plugin) Score(_ context.Context, cs *framework.CycleState, pod *corev1.Pod, ni *framework.NodeInfo) (int64, *framework.Status) {
	s, err := readState(cs)
	if err != nil {
		return 0, framework.AsStatus(err)
	}
	var n int64
	for _, pi := range ni.Pods {
		p := pi.Pod
		if p.Namespace == pod.Namespace && p.DeletionTimestamp == nil && controllerUID(p) == s.owner {
			n++
		}
	}
	return n, nil
}

func readState(cs *framework.CycleState) (*preScoreState, error) {
	return framework.ReadState[*preScoreState](cs, preScoreStateKey)
}

// ScoreExtensions returns the plugin, which normalizes its scores.
func (pl *Plugin) ScoreExtensions() framework.ScoreExtensions { return pl }

// NormalizeScore gives each node MaxNodeScore*(maxNode-count)/maxNode
// (MaxNodeScore when no node has any), and when zones are known blends in
// the same over the zones' sums, the zone weighing 2/3.
func (pl *Plugin) NormalizeScore(_ context.Context, _ *framework.CycleState, _ *corev1.Pod, scores framework.NodeScoreList) *framework.Status {
	zones := make([]string, len(scores))
	byZone := map[string]int64{}
	var maxNode, maxZone int64
	for i := range scores {
		maxNode = max(maxNode, scores[i].Score)
		ni, err := pl.h.SnapshotSharedLister().Get(scores[i].Name)
		if err != nil {
			return framework.AsStatus(fmt.Errorf("%s: get node %q: %w", Name, scores[i].Name, err))
		}
		zones[i] = zoneKey(ni.Node())
		if zones[i] != "" {
			byZone[zones[i]] += scores[i].Score
		}
	}
	for _, n := range byZone {
		maxZone = max(maxZone, n)
	}
	top := float64(framework.MaxNodeScore)
	for i := range scores {
		f := top
		if maxNode > 0 {
			f = top * float64(maxNode-scores[i].Score) / float64(maxNode)
		}
		if zones[i] != "" {
			z := top
			if maxZone > 0 {
				z = top * float64(maxZone-byZone[zones[i]]) / float64(maxZone)
			}
			f = f*(1-zoneWeighting) + z*zoneWeighting
		}
		scores[i].Score = int64(f)
	}
	return nil
}

// zoneKey identifies the node's failure domain by region and zone; "" when
// the node has neither label.
func zoneKey(node *corev1.Node) string {
	if node == nil {
		return ""
	}
	get := func(ours, theirs string) string {
		if v, ok := node.Labels[ours]; ok {
			return v
		}
		return node.Labels[theirs]
	}
	region, zone := get(LabelRegion, LabelUpstreamRegion), get(LabelZone, LabelUpstreamZone)
	if region == "" && zone == "" {
		return ""
	}
	return region + ":\x00:" + zone
}

// controllerUID returns the UID of pod's controller, or "".
func controllerUID(pod *corev1.Pod) meta.UID {
	for _, r := range pod.OwnerReferences {
		if r.Controller != nil && *r.Controller {
			return r.UID
		}
	}
	return ""
}
