package podtopologyspread

import (
	"context"
	"math"
	"sync/atomic"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
	"platform.io/platform/pkg/scheduler/plugins/internal/topology"
)

const (
	preScoreStateKey framework.StateKey = "PreScore" + Name
	invalidScore     int64              = -1
)

// preScoreState is what PreScore counts for Score.
type preScoreState struct {
	constraints []constraint
	// ignoredNodes lack one of the constraints' keys and score 0.
	ignoredNodes map[string]bool
	// podCounts counts matching pods per domain of the candidate nodes;
	// hostname domains are counted in Score instead.
	podCounts map[topology.Pair]*int64
	// weights: log(domains+2) per constraint, so that the counts of small
	// topologies are not drowned by those of big ones.
	weights []float64
}

// Clone returns s: scoring never changes it.
func (s *preScoreState) Clone() framework.StateData { return s }

// PreScore counts, for each ScheduleAnyway constraint (or default
// constraint), the matching pods of each domain that holds a candidate
// node. Under system defaulting a node without the zone label still
// spreads by hostname; otherwise nodes missing a key are ignored.
func (pl *Plugin) PreScore(ctx context.Context, cs *framework.CycleState, pod *corev1.Pod, filtered []*framework.NodeInfo) *framework.Status {
	all := pl.h.SnapshotSharedLister().List()
	if len(filtered) == 0 || len(all) == 0 {
		return framework.NewStatus(framework.Skip)
	}
	s := &preScoreState{ignoredNodes: map[string]bool{}, podCounts: map[topology.Pair]*int64{}}
	requireAll := len(pod.Spec.TopologySpreadConstraints) > 0 || !pl.systemDefaulted
	s.constraints = pl.constraintsFor(pod, corev1.ScheduleAnyway)
	if len(s.constraints) == 0 {
		return framework.NewStatus(framework.Skip)
	}
	s.initDomains(filtered, requireAll)
	pl.h.Parallelize(ctx, len(all), func(i int) {
		node := all[i].Node()
		if node == nil || requireAll && !nodeHasAllKeys(node.Labels, s.constraints) {
			return
		}
		for j := range s.constraints {
			c := &s.constraints[j]
			if c.TopologyKey == LabelHostname || !c.includesNode(pod, node) {
				continue
			}
			// A node without the key counts in the "" domain, as upstream.
			if n := s.podCounts[topology.Pair{Key: c.TopologyKey, Value: node.Labels[c.TopologyKey]}]; n != nil {
				atomic.AddInt64(n, int64(c.countMatching(all[i].Pods, pod.Namespace)))
			}
		}
	})
	cs.Write(preScoreStateKey, s)
	return nil
}

// initDomains creates a counter per domain of the candidate nodes and the
// normalizing weight per constraint.
func (s *preScoreState) initDomains(filtered []*framework.NodeInfo, requireAll bool) {
	sizes := make([]int, len(s.constraints))
	for _, ni := range filtered {
		node := ni.Node()
		if requireAll && !nodeHasAllKeys(node.Labels, s.constraints) {
			s.ignoredNodes[node.Name] = true
			continue
		}
		for i := range s.constraints {
			key := s.constraints[i].TopologyKey
			if key == LabelHostname {
				continue
			}
			p := topology.Pair{Key: key, Value: node.Labels[key]}
			if s.podCounts[p] == nil {
				s.podCounts[p] = new(int64)
				sizes[i]++
			}
		}
	}
	s.weights = make([]float64, len(s.constraints))
	for i := range s.constraints {
		n := sizes[i]
		if s.constraints[i].TopologyKey == LabelHostname {
			n = len(filtered) - len(s.ignoredNodes)
		}
		s.weights[i] = math.Log(float64(n + 2))
	}
}

// Score sums, per constraint, the matching pods of the node's domain times
// the constraint's weight, plus maxSkew-1 to soften small skews. Fewer is
// better; NormalizeScore turns it around.
func (pl *Plugin) Score(_ context.Context, cs *framework.CycleState, pod *corev1.Pod, ni *framework.NodeInfo) (int64, *framework.Status) {
	s, err := readPreScoreState(cs)
	if err != nil {
		return 0, framework.AsStatus(err)
	}
	node := ni.Node()
	if s.ignoredNodes[node.Name] {
		return 0, nil
	}
	var score float64
	for i := range s.constraints {
		c := &s.constraints[i]
		v, ok := node.Labels[c.TopologyKey]
		if !ok {
			continue
		}
		var n int64
		if c.TopologyKey == LabelHostname {
			n = int64(c.countMatching(ni.Pods, pod.Namespace))
		} else if p := s.podCounts[topology.Pair{Key: c.TopologyKey, Value: v}]; p != nil {
			n = *p
		}
		score += float64(n)*s.weights[i] + float64(c.MaxSkew-1)
	}
	return int64(math.Round(score)), nil
}

func readPreScoreState(cs *framework.CycleState) (*preScoreState, error) {
	return framework.ReadState[*preScoreState](cs, preScoreStateKey)
}

// ScoreExtensions returns the plugin, which normalizes its scores.
func (pl *Plugin) ScoreExtensions() framework.ScoreExtensions { return pl }

// NormalizeScore maps a score s to MaxNodeScore*(max+min-s)/max, so the
// node with the fewest matching pods scores highest; ignored nodes get 0.
func (pl *Plugin) NormalizeScore(_ context.Context, cs *framework.CycleState, _ *corev1.Pod, scores framework.NodeScoreList) *framework.Status {
	s, err := readPreScoreState(cs)
	if err != nil {
		return framework.AsStatus(err)
	}
	lo, hi := int64(math.MaxInt64), int64(0)
	for i := range scores {
		if s.ignoredNodes[scores[i].Name] {
			scores[i].Score = invalidScore
			continue
		}
		lo, hi = min(lo, scores[i].Score), max(hi, scores[i].Score)
	}
	for i := range scores {
		switch {
		case scores[i].Score == invalidScore:
			scores[i].Score = 0
		case hi == 0:
			scores[i].Score = framework.MaxNodeScore
		default:
			scores[i].Score = framework.MaxNodeScore * (hi + lo - scores[i].Score) / hi
		}
	}
	return nil
}
