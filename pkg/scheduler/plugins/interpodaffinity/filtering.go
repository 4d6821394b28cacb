package interpodaffinity

import (
	"context"
	"fmt"
	"sync"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
	"platform.io/platform/pkg/scheduler/plugins/internal/topology"
)

// The reasons Filter gives, as upstream words them.
const (
	ErrReasonAffinityRulesNotMatch             = "node(s) didn't match pod affinity rules"
	ErrReasonAntiAffinityRulesNotMatch         = "node(s) didn't match pod anti-affinity rules"
	ErrReasonExistingAntiAffinityRulesNotMatch = "node(s) didn't satisfy existing pods anti-affinity rules"
)

const preFilterStateKey framework.StateKey = "PreFilter" + Name

// topologyToMatchedTermCount counts, per domain, the (pod, term) matches.
type topologyToMatchedTermCount map[topology.Pair]int64

func (m topologyToMatchedTermCount) merge(o topologyToMatchedTermCount) {
	for k, v := range o {
		m[k] += v
	}
}

func (m topologyToMatchedTermCount) add(key string, node *corev1.Node, delta int64) {
	if p, ok := topology.NodePair(node, key); ok {
		m.addPair(p, delta)
	}
}

func (m topologyToMatchedTermCount) addPair(p topology.Pair, delta int64) {
	n := m[p] + delta
	if n == 0 {
		delete(m, p)
		return
	}
	m[p] = n
}

func (m topologyToMatchedTermCount) clone() topologyToMatchedTermCount {
	c := make(topologyToMatchedTermCount, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// counts is the sum of shared maps (the index's, read-only, all counts
// positive) or, once preemption changes it, a map of its own.
type counts struct {
	shared []topologyToMatchedTermCount
	own    topologyToMatchedTermCount
}

func ownCounts(m topologyToMatchedTermCount) counts { return counts{own: m} }

func (c *counts) get(p topology.Pair) int64 {
	n := c.own[p]
	for _, m := range c.shared {
		n += m[p]
	}
	return n
}

func (c *counts) empty() bool {
	if len(c.own) > 0 {
		return false
	}
	for _, m := range c.shared {
		if len(m) > 0 {
			return false
		}
	}
	return true
}

// mutable turns the shared maps into a map of c's own and returns it.
func (c *counts) mutable() topologyToMatchedTermCount {
	if c.own == nil {
		c.own = topologyToMatchedTermCount{}
	}
	for _, m := range c.shared {
		c.own.merge(m)
	}
	c.shared = nil
	return c.own
}

func (c counts) clone() counts {
	if c.own != nil {
		return counts{own: c.own.clone()}
	}
	return counts{shared: c.shared}
}

// preFilterState is what PreFilter counts for Filter.
type preFilterState struct {
	// existingAntiAffinityCounts: domains where an existing pod's required
	// anti-affinity term matches the incoming pod.
	existingAntiAffinityCounts counts
	// affinityCounts: domains with pods matching all the incoming pod's
	// required affinity terms (counted once per term).
	affinityCounts counts
	// antiAffinityCounts: domains with pods matching one of the incoming
	// pod's required anti-affinity terms (counted per term).
	antiAffinityCounts counts
	podInfo            *framework.PodInfo
}

// Clone returns a deep copy of the counts.
func (s *preFilterState) Clone() framework.StateData {
	if s == nil {
		return nil
	}
	return &preFilterState{
		existingAntiAffinityCounts: s.existingAntiAffinityCounts.clone(),
		affinityCounts:             s.affinityCounts.clone(),
		antiAffinityCounts:         s.antiAffinityCounts.clone(),
		podInfo:                    s.podInfo,
	}
}

// PreFilter counts, per topology domain, the pods that the incoming pod's
// required terms match and the existing pods whose required anti-affinity
// matches the incoming pod. It returns Skip when there is nothing to check.
func (pl *Plugin) PreFilter(ctx context.Context, cs *framework.CycleState, pod *corev1.Pod) (*framework.PreFilterResult, *framework.Status) {
	s := &preFilterState{podInfo: framework.NewPodInfo(pod)}
	if !pl.indexedCounts(s) {
		lister := pl.h.SnapshotSharedLister()
		s.existingAntiAffinityCounts = ownCounts(pl.existingAntiAffinityCounts(ctx, pod, lister.HavePodsWithRequiredAntiAffinityList()))
		aff, anti := pl.incomingCounts(ctx, s.podInfo, lister.List())
		s.affinityCounts, s.antiAffinityCounts = ownCounts(aff), ownCounts(anti)
	}
	cs.Write(preFilterStateKey, s)
	if s.existingAntiAffinityCounts.empty() && len(s.podInfo.RequiredAffinityTerms) == 0 && len(s.podInfo.RequiredAntiAffinityTerms) == 0 {
		return nil, framework.NewStatus(framework.Skip)
	}
	return nil, nil
}

// indexedCounts fills s's counts from the index, in time proportional to
// the nodes changed since the last cycle and the distinct terms; false
// when the snapshot cannot report changes or a term has a
// namespaceSelector (then PreFilter counts every pod).
func (pl *Plugin) indexedCounts(s *preFilterState) bool {
	pi := s.podInfo
	if !cacheable(pi.RequiredAffinityTerms) || !cacheable(pi.RequiredAntiAffinityTerms) {
		return false
	}
	x := &pl.idx
	x.mu.Lock()
	defer x.mu.Unlock()
	if !x.sync(pl, pl.h.SnapshotSharedLister()) {
		return false
	}
	for _, g := range x.existing {
		if len(g.counts) > 0 && pl.termMatches(&g.terms[0], pi.Pod) {
			s.existingAntiAffinityCounts.shared = append(s.existingAntiAffinityCounts.shared, g.counts)
		}
	}
	if len(pi.RequiredAffinityTerms) > 0 {
		s.affinityCounts.shared = []topologyToMatchedTermCount{x.incomingGroup(pl, pi.RequiredAffinityTerms)}
	}
	for i := range pi.RequiredAntiAffinityTerms {
		s.antiAffinityCounts.shared = append(s.antiAffinityCounts.shared, x.incomingGroup(pl, pi.RequiredAntiAffinityTerms[i:i+1]))
	}
	return true
}

// parallelCount runs count on every node and merges the results.
func (pl *Plugin) parallelCount(ctx context.Context, nodes []*framework.NodeInfo, count func(ni *framework.NodeInfo, into topologyToMatchedTermCount)) topologyToMatchedTermCount {
	var mu sync.Mutex
	total := topologyToMatchedTermCount{}
	pl.h.Parallelize(ctx, len(nodes), func(i int) {
		ni := nodes[i]
		if ni.Node() == nil {
			return
		}
		local := topologyToMatchedTermCount{}
		count(ni, local)
		if len(local) == 0 {
			return
		}
		mu.Lock()
		total.merge(local)
		mu.Unlock()
	})
	return total
}

// existingAntiAffinityCounts counts the domains of existing pods whose
// required anti-affinity terms match pod.
func (pl *Plugin) existingAntiAffinityCounts(ctx context.Context, pod *corev1.Pod, nodes []*framework.NodeInfo) topologyToMatchedTermCount {
	return pl.parallelCount(ctx, nodes, func(ni *framework.NodeInfo, into topologyToMatchedTermCount) {
		for _, existing := range ni.PodsWithRequiredAntiAffinity {
			pl.addAntiAffinityTerms(into, existing.RequiredAntiAffinityTerms, pod, ni.Node(), 1)
		}
	})
}

// incomingCounts counts the domains of pods that pi's required affinity
// and anti-affinity terms match.
func (pl *Plugin) incomingCounts(ctx context.Context, pi *framework.PodInfo, nodes []*framework.NodeInfo) (affinity, anti topologyToMatchedTermCount) {
	if len(pi.RequiredAffinityTerms) == 0 && len(pi.RequiredAntiAffinityTerms) == 0 {
		return topologyToMatchedTermCount{}, topologyToMatchedTermCount{}
	}
	var mu sync.Mutex
	affinity, anti = topologyToMatchedTermCount{}, topologyToMatchedTermCount{}
	pl.h.Parallelize(ctx, len(nodes), func(i int) {
		ni := nodes[i]
		if ni.Node() == nil {
			return
		}
		aff, an := topologyToMatchedTermCount{}, topologyToMatchedTermCount{}
		for _, existing := range ni.Pods {
			pl.addAffinityTerms(aff, pi.RequiredAffinityTerms, existing.Pod, ni.Node(), 1)
			pl.addAntiAffinityTerms(an, pi.RequiredAntiAffinityTerms, existing.Pod, ni.Node(), 1)
		}
		if len(aff)+len(an) == 0 {
			return
		}
		mu.Lock()
		affinity.merge(aff)
		anti.merge(an)
		mu.Unlock()
	})
	return affinity, anti
}

// addAffinityTerms adds delta to the domain of every term when pod
// matches all terms.
func (pl *Plugin) addAffinityTerms(m topologyToMatchedTermCount, terms []framework.AffinityTerm, pod *corev1.Pod, node *corev1.Node, delta int64) {
	if !pl.matchesAll(terms, pod) {
		return
	}
	for i := range terms {
		m.add(terms[i].TopologyKey, node, delta)
	}
}

// addAntiAffinityTerms adds delta to the domain of each term pod matches.
func (pl *Plugin) addAntiAffinityTerms(m topologyToMatchedTermCount, terms []framework.AffinityTerm, pod *corev1.Pod, node *corev1.Node, delta int64) {
	for i := range terms {
		if pl.termMatches(&terms[i], pod) {
			m.add(terms[i].TopologyKey, node, delta)
		}
	}
}

// PreFilterExtensions returns the plugin: it updates its counts for
// preemption's added and removed pods.
func (pl *Plugin) PreFilterExtensions() framework.PreFilterExtensions { return pl }

// AddPod counts podInfoToAdd as if it ran on nodeInfo.
func (pl *Plugin) AddPod(_ context.Context, cs *framework.CycleState, _ *corev1.Pod, podInfoToAdd *framework.PodInfo, nodeInfo *framework.NodeInfo) *framework.Status {
	return pl.updateWithPod(cs, podInfoToAdd, nodeInfo, 1)
}

// RemovePod uncounts podInfoToRemove as if it left nodeInfo.
func (pl *Plugin) RemovePod(_ context.Context, cs *framework.CycleState, _ *corev1.Pod, podInfoToRemove *framework.PodInfo, nodeInfo *framework.NodeInfo) *framework.Status {
	return pl.updateWithPod(cs, podInfoToRemove, nodeInfo, -1)
}

func (pl *Plugin) updateWithPod(cs *framework.CycleState, pi *framework.PodInfo, nodeInfo *framework.NodeInfo, delta int64) *framework.Status {
	s, err := readPreFilterState(cs)
	if err != nil {
		return framework.AsStatus(err)
	}
	node := nodeInfo.Node()
	if node == nil {
		return nil
	}
	pl.addAntiAffinityTerms(s.existingAntiAffinityCounts.mutable(), pi.RequiredAntiAffinityTerms, s.podInfo.Pod, node, delta)
	pl.addAffinityTerms(s.affinityCounts.mutable(), s.podInfo.RequiredAffinityTerms, pi.Pod, node, delta)
	pl.addAntiAffinityTerms(s.antiAffinityCounts.mutable(), s.podInfo.RequiredAntiAffinityTerms, pi.Pod, node, delta)
	return nil
}

func readPreFilterState(cs *framework.CycleState) (*preFilterState, error) {
	return framework.ReadState[*preFilterState](cs, preFilterStateKey)
}

// Filter checks nodeInfo against the counts PreFilter made, in time
// proportional to the terms and the node's labels.
func (pl *Plugin) Filter(_ context.Context, cs *framework.CycleState, _ *corev1.Pod, nodeInfo *framework.NodeInfo) *framework.Status {
	node := nodeInfo.Node()
	if node == nil {
		return framework.AsStatus(fmt.Errorf("%s: node not found", Name))
	}
	s, err := readPreFilterState(cs)
	if err != nil {
		return framework.AsStatus(err)
	}
	if !pl.satisfiesAffinity(s, node) {
		return framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonAffinityRulesNotMatch)
	}
	if !satisfiesAntiAffinity(s, node) {
		return framework.NewStatus(framework.Unschedulable, ErrReasonAntiAffinityRulesNotMatch)
	}
	if !satisfiesExistingAntiAffinity(s, node) {
		return framework.NewStatus(framework.Unschedulable, ErrReasonExistingAntiAffinityRulesNotMatch)
	}
	return nil
}

// satisfiesAffinity: the node has every term's topology key, and each of
// its domains holds a matching pod; or, when no pod in the cluster matches
// and the pod matches its own terms, it is the first of its group and may
// go anywhere that has the keys.
func (pl *Plugin) satisfiesAffinity(s *preFilterState, node *corev1.Node) bool {
	podsExist := true
	for i := range s.podInfo.RequiredAffinityTerms {
		t := &s.podInfo.RequiredAffinityTerms[i]
		v, ok := node.Labels[t.TopologyKey]
		if !ok {
			return false
		}
		if s.affinityCounts.get(topology.Pair{Key: t.TopologyKey, Value: v}) <= 0 {
			podsExist = false
		}
	}
	if podsExist {
		return true
	}
	return s.affinityCounts.empty() && pl.matchesAll(s.podInfo.RequiredAffinityTerms, s.podInfo.Pod)
}

// satisfiesAntiAffinity: no domain of the node holds a pod that one of
// the incoming pod's anti-affinity terms matches.
func satisfiesAntiAffinity(s *preFilterState, node *corev1.Node) bool {
	if s.antiAffinityCounts.empty() {
		return true
	}
	for i := range s.podInfo.RequiredAntiAffinityTerms {
		t := &s.podInfo.RequiredAntiAffinityTerms[i]
		if v, ok := node.Labels[t.TopologyKey]; ok && s.antiAffinityCounts.get(topology.Pair{Key: t.TopologyKey, Value: v}) > 0 {
			return false
		}
	}
	return true
}

// satisfiesExistingAntiAffinity: no domain of the node holds a pod whose
// anti-affinity the incoming pod matches.
func satisfiesExistingAntiAffinity(s *preFilterState, node *corev1.Node) bool {
	if s.existingAntiAffinityCounts.empty() {
		return true
	}
	for k, v := range node.Labels {
		if s.existingAntiAffinityCounts.get(topology.Pair{Key: k, Value: v}) > 0 {
			return false
		}
	}
	return true
}
