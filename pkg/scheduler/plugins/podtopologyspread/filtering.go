package podtopologyspread

import (
	"context"
	"fmt"
	"math"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
	"platform.io/platform/pkg/scheduler/plugins/internal/topology"
)

// The reasons Filter gives, as upstream words them.
const (
	ErrReasonConstraintsNotMatch = "node(s) didn't match pod topology spread constraints"
	ErrReasonNodeLabelNotMatch   = ErrReasonConstraintsNotMatch + " (missing required label)"
)

const preFilterStateKey framework.StateKey = "PreFilter" + Name

// criticalPaths holds the two domains of a key with the fewest matching
// pods, [0] having no more than [1]; enough to know the minimum after
// preemption's one-pod changes.
type criticalPaths [2]struct {
	value string
	num   int
}

func newCriticalPaths() *criticalPaths {
	return &criticalPaths{{num: math.MaxInt32}, {num: math.MaxInt32}}
}

// update records that domain value now holds num matching pods.
func (p *criticalPaths) update(value string, num int) {
	i := -1
	if value == p[0].value {
		i = 0
	} else if value == p[1].value {
		i = 1
	}
	if i >= 0 {
		p[i].num = num
		if p[0].num > p[1].num {
			p[0], p[1] = p[1], p[0]
		}
		return
	}
	if num < p[0].num {
		p[1] = p[0]
		p[0].value, p[0].num = value, num
	} else if num < p[1].num {
		p[1].value, p[1].num = value, num
	}
}

// preFilterState is what PreFilter counts for Filter.
type preFilterState struct {
	constraints []constraint
	// criticalPaths per topology key.
	criticalPaths map[string]*criticalPaths
	// domains counts the eligible domains per topology key.
	domains map[string]int
	// matchNum counts the matching pods per eligible domain.
	matchNum map[topology.Pair]int
}

// Clone returns a deep copy.
func (s *preFilterState) Clone() framework.StateData {
	if s == nil {
		return nil
	}
	c := &preFilterState{
		constraints:   s.constraints,
		criticalPaths: make(map[string]*criticalPaths, len(s.criticalPaths)),
		domains:       s.domains,
		matchNum:      make(map[topology.Pair]int, len(s.matchNum)),
	}
	for k, p := range s.criticalPaths {
		cp := *p
		c.criticalPaths[k] = &cp
	}
	for k, v := range s.matchNum {
		c.matchNum[k] = v
	}
	return c
}

// minMatchNum is the global minimum of key's domains: 0 while there are
// fewer eligible domains than minDomains.
func (s *preFilterState) minMatchNum(key string, minDomains int32) (int, error) {
	p, ok := s.criticalPaths[key]
	if !ok {
		return 0, fmt.Errorf("%s: no critical paths for topology key %q", Name, key)
	}
	if s.domains[key] < int(minDomains) {
		return 0, nil
	}
	return p[0].num, nil
}

// PreFilter counts the pods each DoNotSchedule constraint selects in each
// eligible domain, over all nodes that have every constraint's key and
// pass the constraint's inclusion policies.
func (pl *Plugin) PreFilter(ctx context.Context, cs *framework.CycleState, pod *corev1.Pod) (*framework.PreFilterResult, *framework.Status) {
	s := pl.calPreFilterState(ctx, pod)
	cs.Write(preFilterStateKey, s)
	if len(s.constraints) == 0 {
		return nil, framework.NewStatus(framework.Skip)
	}
	return nil, nil
}

func (pl *Plugin) calPreFilterState(ctx context.Context, pod *corev1.Pod) *preFilterState {
	constraints := pl.constraintsFor(pod, corev1.DoNotSchedule)
	if len(constraints) == 0 {
		return &preFilterState{}
	}
	if s, ok := pl.indexedPreFilterState(pod, constraints); ok {
		return s
	}
	nodes := pl.h.SnapshotSharedLister().List()
	// perNode[i][j] is node i's count for constraint j, -1 when the node
	// is not one of its domains; nil when the node lacks a key.
	perNode := make([][]int, len(nodes))
	pl.h.Parallelize(ctx, len(nodes), func(i int) {
		node := nodes[i].Node()
		if node == nil || !nodeHasAllKeys(node.Labels, constraints) {
			return
		}
		counts := make([]int, len(constraints))
		for j := range constraints {
			c := &constraints[j]
			if !c.includesNode(pod, node) {
				counts[j] = -1
				continue
			}
			counts[j] = c.countMatching(nodes[i].Pods, pod.Namespace)
		}
		perNode[i] = counts
	})
	matchNum := map[topology.Pair]int{}
	for i, counts := range perNode {
		for j, n := range counts {
			if n < 0 {
				continue
			}
			key := constraints[j].TopologyKey
			matchNum[topology.Pair{Key: key, Value: nodes[i].Node().Labels[key]}] += n
		}
	}
	return newPreFilterState(constraints, matchNum)
}

// indexedPreFilterState takes the counts from the index when they do not
// depend on pod beyond its constraints and namespace; false otherwise, or
// when the snapshot cannot report its changes.
func (pl *Plugin) indexedPreFilterState(pod *corev1.Pod, constraints []constraint) (*preFilterState, bool) {
	if !includesAllNodes(pod, constraints) {
		return nil, false
	}
	x := &pl.idx
	x.mu.Lock()
	defer x.mu.Unlock()
	if !x.sync(pl.h.SnapshotSharedLister()) {
		return nil, false
	}
	g := x.group(constraints, pod.Namespace)
	matchNum := make(map[topology.Pair]int, len(g.counts))
	for p, dc := range g.counts {
		matchNum[p] = dc.pods
	}
	return newPreFilterState(constraints, matchNum), true
}

// newPreFilterState derives the domains and critical paths of matchNum.
func newPreFilterState(constraints []constraint, matchNum map[topology.Pair]int) *preFilterState {
	s := &preFilterState{
		constraints:   constraints,
		criticalPaths: make(map[string]*criticalPaths, len(constraints)),
		domains:       make(map[string]int, len(constraints)),
		matchNum:      matchNum,
	}
	for p := range s.matchNum {
		s.domains[p.Key]++
	}
	for i := range constraints {
		s.criticalPaths[constraints[i].TopologyKey] = newCriticalPaths()
	}
	for p, n := range s.matchNum {
		s.criticalPaths[p.Key].update(p.Value, n)
	}
	return s
}

// PreFilterExtensions returns the plugin: it updates its counts for
// preemption's added and removed pods.
func (pl *Plugin) PreFilterExtensions() framework.PreFilterExtensions { return pl }

// AddPod counts podInfoToAdd as if it ran on nodeInfo.
func (pl *Plugin) AddPod(_ context.Context, cs *framework.CycleState, pod *corev1.Pod, podInfoToAdd *framework.PodInfo, nodeInfo *framework.NodeInfo) *framework.Status {
	return pl.updateWithPod(cs, podInfoToAdd.Pod, pod, nodeInfo.Node(), 1)
}

// RemovePod uncounts podInfoToRemove as if it left nodeInfo.
func (pl *Plugin) RemovePod(_ context.Context, cs *framework.CycleState, pod *corev1.Pod, podInfoToRemove *framework.PodInfo, nodeInfo *framework.NodeInfo) *framework.Status {
	return pl.updateWithPod(cs, podInfoToRemove.Pod, pod, nodeInfo.Node(), -1)
}

func (pl *Plugin) updateWithPod(cs *framework.CycleState, updated, preemptor *corev1.Pod, node *corev1.Node, delta int) *framework.Status {
	s, err := readPreFilterState(cs)
	if err != nil {
		return framework.AsStatus(err)
	}
	if node == nil || updated.Namespace != preemptor.Namespace || !nodeHasAllKeys(node.Labels, s.constraints) {
		return nil
	}
	for i := range s.constraints {
		c := &s.constraints[i]
		if !c.matches(updated) || !c.includesNode(preemptor, node) {
			continue
		}
		p := topology.Pair{Key: c.TopologyKey, Value: node.Labels[c.TopologyKey]}
		s.matchNum[p] += delta
		s.criticalPaths[p.Key].update(p.Value, s.matchNum[p])
	}
	return nil
}

func readPreFilterState(cs *framework.CycleState) (*preFilterState, error) {
	return framework.ReadState[*preFilterState](cs, preFilterStateKey)
}

// Filter admits the node when, for every constraint, the pods matching in
// the node's domain, plus one if the pod matches itself, minus the global
// minimum, do not exceed maxSkew. A node without a constraint's key is
// rejected as unresolvable.
func (pl *Plugin) Filter(_ context.Context, cs *framework.CycleState, pod *corev1.Pod, nodeInfo *framework.NodeInfo) *framework.Status {
	node := nodeInfo.Node()
	if node == nil {
		return framework.AsStatus(fmt.Errorf("%s: node not found", Name))
	}
	s, err := readPreFilterState(cs)
	if err != nil {
		return framework.AsStatus(err)
	}
	for i := range s.constraints {
		c := &s.constraints[i]
		v, ok := node.Labels[c.TopologyKey]
		if !ok {
			return framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonNodeLabelNotMatch)
		}
		minNum, err := s.minMatchNum(c.TopologyKey, c.MinDomains)
		if err != nil {
			return framework.AsStatus(err)
		}
		self := 0
		if c.matches(pod) {
			self = 1
		}
		if s.matchNum[topology.Pair{Key: c.TopologyKey, Value: v}]+self-minNum > int(c.MaxSkew) {
			return framework.NewStatus(framework.Unschedulable, ErrReasonConstraintsNotMatch)
		}
	}
	return nil
}
