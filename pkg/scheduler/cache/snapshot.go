package cache

import (
	"fmt"
	"sort"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
)

// ZoneLabel is the node label nodes are interleaved by in the snapshot's
// list, so that the first nodes looked at span the zones.
const ZoneLabel = "topology.platform.io/zone"

// Snapshot is the cluster as one scheduling cycle sees it. It is owned by
// the scheduling goroutine: UpdateSnapshot refreshes it in place between
// cycles, and plugins read it during a cycle.
type Snapshot struct {
	nodeInfoMap  map[string]*framework.NodeInfo
	nodeInfoList []*framework.NodeInfo
	withAffinity []*framework.NodeInfo
	withRequired []*framework.NodeInfo
	generation   int64
	imageGen     int64
	images       map[string]*framework.ImageStateSummary
	// changes logs the names of the nodes cloned or dropped by updates;
	// changes[0] has mark changesBase+1.
	changes     []string
	changesBase uint64
}

var (
	_ framework.NodeInfoLister  = (*Snapshot)(nil)
	_ framework.NodeInfoChanges = (*Snapshot)(nil)
)

// ChangeMark is the mark after the last logged change.
func (s *Snapshot) ChangeMark() uint64 { return s.changesBase + uint64(len(s.changes)) }

// ChangedSince returns the nodes changed after mark.
func (s *Snapshot) ChangedSince(mark uint64) ([]string, bool) {
	if mark < s.changesBase || mark > s.ChangeMark() {
		return nil, false
	}
	return s.changes[mark-s.changesBase:], true
}

// logChange records a changed node, forgetting the older half of the log
// when it outgrows a few times the nodes (readers that far behind start
// over, which costs them what reading every node costs).
func (s *Snapshot) logChange(name string) {
	if limit := 4*len(s.nodeInfoMap) + 1024; len(s.changes) >= limit {
		half := len(s.changes) / 2
		s.changesBase += uint64(half)
		s.changes = append(s.changes[:0], s.changes[half:]...)
	}
	s.changes = append(s.changes, name)
}

// NewEmptySnapshot returns a snapshot for UpdateSnapshot to fill.
func NewEmptySnapshot() *Snapshot {
	return &Snapshot{nodeInfoMap: map[string]*framework.NodeInfo{}, imageGen: -1}
}

// NewSnapshot builds a snapshot of nodes with pods on them, for tests.
func NewSnapshot(pods []*corev1.Pod, nodes []*corev1.Node) *Snapshot {
	c := New(nil, 0, nil)
	for _, n := range nodes {
		c.AddNode(n)
	}
	for _, p := range pods {
		_ = c.AddPod(p)
	}
	s := NewEmptySnapshot()
	c.UpdateSnapshot(s)
	return s
}

// List returns the nodes, interleaved by zone.
func (s *Snapshot) List() []*framework.NodeInfo { return s.nodeInfoList }

// HavePodsWithAffinityList returns the nodes with pods that have affinity
// or anti-affinity terms.
func (s *Snapshot) HavePodsWithAffinityList() []*framework.NodeInfo { return s.withAffinity }

// HavePodsWithRequiredAntiAffinityList returns the nodes with pods that
// have required anti-affinity terms.
func (s *Snapshot) HavePodsWithRequiredAntiAffinityList() []*framework.NodeInfo {
	return s.withRequired
}

// Get returns one node.
func (s *Snapshot) Get(name string) (*framework.NodeInfo, error) {
	if ni, ok := s.nodeInfoMap[name]; ok && ni.Node() != nil {
		return ni, nil
	}
	return nil, fmt.Errorf("node %q: %w", name, framework.ErrNotFound)
}

// NumNodes returns the number of nodes.
func (s *Snapshot) NumNodes() int { return len(s.nodeInfoList) }

// UpdateSnapshot brings s up to date, cloning only the nodes that changed
// since s was last updated.
func (c *Cache) UpdateSnapshot(s *Snapshot) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	rebuildList, rebuildAffinity := false, false
	imagesChanged := c.imageGen != s.imageGen
	if imagesChanged {
		s.images = make(map[string]*framework.ImageStateSummary, len(c.images))
		for name, st := range c.images {
			s.images[name] = &framework.ImageStateSummary{Size: st.size, NumNodes: len(st.nodes)}
		}
		s.imageGen = c.imageGen
	}
	for it := c.head; it != nil && it.info.Generation > s.generation; it = it.next {
		node := it.info.Node()
		if node == nil {
			continue
		}
		existing, ok := s.nodeInfoMap[node.Name]
		if !ok {
			rebuildList = true
			existing = &framework.NodeInfo{}
			s.nodeInfoMap[node.Name] = existing
		}
		clone := it.info.Clone()
		if (len(existing.PodsWithAffinity) > 0) != (len(clone.PodsWithAffinity) > 0) ||
			(len(existing.PodsWithRequiredAntiAffinity) > 0) != (len(clone.PodsWithRequiredAntiAffinity) > 0) {
			rebuildAffinity = true
		}
		if !imagesChanged {
			clone.ImageStates = s.imageStatesOf(node)
		}
		*existing = *clone
		s.logChange(node.Name)
	}
	if c.head != nil {
		s.generation = c.head.info.Generation
	}
	if len(s.nodeInfoMap) > c.numNodes {
		for name := range s.nodeInfoMap {
			if it, ok := c.nodes[name]; !ok || it.info.Node() == nil {
				delete(s.nodeInfoMap, name)
				s.logChange(name)
			}
		}
		rebuildList = true
	}
	if imagesChanged {
		for _, ni := range s.nodeInfoMap {
			ni.ImageStates = s.imageStatesOf(ni.Node())
		}
	}
	if rebuildList {
		s.rebuildList()
	}
	if rebuildList || rebuildAffinity {
		s.rebuildAffinity()
	}
}

func (s *Snapshot) imageStatesOf(node *corev1.Node) map[string]*framework.ImageStateSummary {
	if len(node.Status.Images) == 0 {
		return nil
	}
	out := map[string]*framework.ImageStateSummary{}
	for _, img := range node.Status.Images {
		for _, name := range img.Names {
			if sum, ok := s.images[name]; ok {
				out[name] = sum
			}
		}
	}
	return out
}

// rebuildList orders the nodes round-robin over zones (sorted), each zone's
// nodes by name.
func (s *Snapshot) rebuildList() {
	zones := map[string][]*framework.NodeInfo{}
	for _, ni := range s.nodeInfoMap {
		z := ni.Node().Labels[ZoneLabel]
		zones[z] = append(zones[z], ni)
	}
	names := make([]string, 0, len(zones))
	for z, list := range zones {
		names = append(names, z)
		sort.Slice(list, func(i, j int) bool { return list[i].Node().Name < list[j].Node().Name })
	}
	sort.Strings(names)
	s.nodeInfoList = s.nodeInfoList[:0]
	for i := 0; len(s.nodeInfoList) < len(s.nodeInfoMap); i++ {
		for _, z := range names {
			if list := zones[z]; i < len(list) {
				s.nodeInfoList = append(s.nodeInfoList, list[i])
			}
		}
	}
}

func (s *Snapshot) rebuildAffinity() {
	s.withAffinity, s.withRequired = s.withAffinity[:0], s.withRequired[:0]
	for _, ni := range s.nodeInfoList {
		if len(ni.PodsWithAffinity) > 0 {
			s.withAffinity = append(s.withAffinity, ni)
		}
		if len(ni.PodsWithRequiredAntiAffinity) > 0 {
			s.withRequired = append(s.withRequired, ni)
		}
	}
}
