package interpodaffinity

import (
	"context"
	"math"
	"sync"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
)

const preScoreStateKey framework.StateKey = "PreScore" + Name

// scoreMap sums weights per topology key and value.
type scoreMap map[string]map[string]int64

func (m scoreMap) add(key, value string, w int64) {
	if m[key] == nil {
		m[key] = map[string]int64{}
	}
	m[key][value] += w
}

func (m scoreMap) merge(o scoreMap) {
	for k, vs := range o {
		for v, w := range vs {
			m.add(k, v, w)
		}
	}
}

// preScoreState is the weights per domain that Score sums for a node.
type preScoreState struct {
	topologyScore scoreMap
}

// Clone returns s: scoring never changes it.
func (s *preScoreState) Clone() framework.StateData { return s }

// PreScore sums, per topology domain, the weights of preferred terms both
// ways (the incoming pod's terms over existing pods, existing pods' terms
// over the incoming pod) and of existing pods' required affinity terms the
// incoming pod matches (times the hard weight). Anti-affinity subtracts.
func (pl *Plugin) PreScore(ctx context.Context, cs *framework.CycleState, pod *corev1.Pod, nodes []*framework.NodeInfo) *framework.Status {
	if len(nodes) == 0 {
		return framework.NewStatus(framework.Skip)
	}
	pi := framework.NewPodInfo(pod)
	hasPreferred := len(pi.PreferredAffinityTerms)+len(pi.PreferredAntiAffinityTerms) > 0
	if pl.ignoreExistingPreferred && !hasPreferred {
		return framework.NewStatus(framework.Skip)
	}
	lister := pl.h.SnapshotSharedLister()
	// Without preferred terms of its own, only pods with affinity count.
	all := lister.HavePodsWithAffinityList()
	if hasPreferred {
		all = lister.List()
	}
	var mu sync.Mutex
	total := scoreMap{}
	pl.h.Parallelize(ctx, len(all), func(i int) {
		ni := all[i]
		node := ni.Node()
		if node == nil || len(node.Labels) == 0 {
			return
		}
		pods := ni.PodsWithAffinity
		if hasPreferred {
			pods = ni.Pods
		}
		var local scoreMap
		for _, existing := range pods {
			if !hasPreferred && !pl.scoresAsExisting(existing) {
				continue
			}
			if local == nil {
				local = scoreMap{}
			}
			pl.scoreExistingPod(local, pi, existing, node)
		}
		if len(local) == 0 {
			return
		}
		mu.Lock()
		total.merge(local)
		mu.Unlock()
	})
	if len(total) == 0 {
		return framework.NewStatus(framework.Skip)
	}
	cs.Write(preScoreStateKey, &preScoreState{topologyScore: total})
	return nil
}

// scoresAsExisting reports whether existing has terms that score other
// pods: preferred terms, or required affinity with a hard weight. (Pods
// with only required anti-affinity are skipped without a map.)
func (pl *Plugin) scoresAsExisting(existing *framework.PodInfo) bool {
	return len(existing.PreferredAffinityTerms)+len(existing.PreferredAntiAffinityTerms) > 0 ||
		(pl.hardWeight > 0 && len(existing.RequiredAffinityTerms) > 0)
}

// scoreExistingPod adds the weights one existing pod contributes.
func (pl *Plugin) scoreExistingPod(m scoreMap, incoming, existing *framework.PodInfo, node *corev1.Node) {
	pl.addTerms(m, incoming.PreferredAffinityTerms, existing.Pod, node, 1)
	pl.addTerms(m, incoming.PreferredAntiAffinityTerms, existing.Pod, node, -1)
	if pl.hardWeight > 0 {
		for i := range existing.RequiredAffinityTerms {
			pl.addTerm(m, &existing.RequiredAffinityTerms[i], int64(pl.hardWeight), incoming.Pod, node)
		}
	}
	pl.addTerms(m, existing.PreferredAffinityTerms, incoming.Pod, node, 1)
	pl.addTerms(m, existing.PreferredAntiAffinityTerms, incoming.Pod, node, -1)
}

func (pl *Plugin) addTerms(m scoreMap, terms []framework.WeightedAffinityTerm, pod *corev1.Pod, node *corev1.Node, sign int64) {
	for i := range terms {
		pl.addTerm(m, &terms[i].AffinityTerm, sign*int64(terms[i].Weight), pod, node)
	}
}

// addTerm adds w to node's domain of the term when pod matches it.
func (pl *Plugin) addTerm(m scoreMap, t *framework.AffinityTerm, w int64, pod *corev1.Pod, node *corev1.Node) {
	if v, ok := node.Labels[t.TopologyKey]; ok && pl.termMatches(t, pod) {
		m.add(t.TopologyKey, v, w)
	}
}

// Score sums the weights of the node's domains.
func (pl *Plugin) Score(_ context.Context, cs *framework.CycleState, _ *corev1.Pod, ni *framework.NodeInfo) (int64, *framework.Status) {
	s, err := readPreScoreState(cs)
	if err != nil {
		return 0, framework.AsStatus(err)
	}
	node := ni.Node()
	var score int64
	for key, values := range s.topologyScore {
		if v, ok := node.Labels[key]; ok {
			score += values[v]
		}
	}
	return score, nil
}

func readPreScoreState(cs *framework.CycleState) (*preScoreState, error) {
	return framework.ReadState[*preScoreState](cs, preScoreStateKey)
}

// ScoreExtensions returns the plugin, which normalizes its scores.
func (pl *Plugin) ScoreExtensions() framework.ScoreExtensions { return pl }

// NormalizeScore maps the scores linearly from [min, max] onto
// [0, MaxNodeScore]; all equal gives 0.
func (pl *Plugin) NormalizeScore(_ context.Context, cs *framework.CycleState, _ *corev1.Pod, scores framework.NodeScoreList) *framework.Status {
	s, err := readPreScoreState(cs)
	if err != nil {
		return framework.AsStatus(err)
	}
	if len(s.topologyScore) == 0 {
		return nil
	}
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for _, sc := range scores {
		lo, hi = min(lo, sc.Score), max(hi, sc.Score)
	}
	diff := hi - lo
	for i := range scores {
		var f float64
		if diff > 0 {
			f = float64(framework.MaxNodeScore) * float64(scores[i].Score-lo) / float64(diff)
		}
		scores[i].Score = int64(f)
	}
	return nil
}
