package testing

import (
	"fmt"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
)

// NewNodeInfo returns a node info for node holding pods. Image states are
// not filled: use NewSnapshot for plugins that read them.
func NewNodeInfo(node *corev1.Node, pods ...*corev1.Pod) *framework.NodeInfo {
	ni := framework.NewNodeInfo(pods...)
	if node != nil {
		ni.SetNode(node)
	}
	return ni
}

// Snapshot is a fixed NodeInfoLister built from pods and nodes, as the
// scheduler cache's snapshot would be at the start of a cycle.
type Snapshot struct {
	byName           map[string]*framework.NodeInfo
	all              []*framework.NodeInfo
	withAffinity     []*framework.NodeInfo
	withRequiredAnti []*framework.NodeInfo
}

var (
	_ framework.NodeInfoLister  = (*Snapshot)(nil)
	_ framework.NodeInfoChanges = (*Snapshot)(nil)
)

// ChangeMark is always 0: the snapshot does not change once built.
func (s *Snapshot) ChangeMark() uint64 { return 0 }

// ChangedSince reports no changes.
func (s *Snapshot) ChangedSince(mark uint64) ([]string, bool) { return nil, mark == 0 }

// NewSnapshot places each pod on the node its spec.nodeName names (pods
// of unknown nodes are left out) and fills every node's image states: each
// name of each image in node.status.images, with the image's size and the
// number of nodes that list that name.
func NewSnapshot(pods []*corev1.Pod, nodes []*corev1.Node) *Snapshot {
	s := &Snapshot{byName: map[string]*framework.NodeInfo{}}
	holders := map[string]int{}
	for _, n := range nodes {
		seen := map[string]bool{}
		for _, img := range n.Status.Images {
			for _, name := range img.Names {
				if !seen[name] {
					seen[name] = true
					holders[name]++
				}
			}
		}
	}
	for _, n := range nodes {
		ni := NewNodeInfo(n)
		ni.ImageStates = map[string]*framework.ImageStateSummary{}
		for _, img := range n.Status.Images {
			for _, name := range img.Names {
				ni.ImageStates[name] = &framework.ImageStateSummary{Size: img.SizeBytes, NumNodes: holders[name]}
			}
		}
		s.byName[n.Name] = ni
		s.all = append(s.all, ni)
	}
	for _, p := range pods {
		if ni, ok := s.byName[p.Spec.NodeName]; ok {
			ni.AddPod(p)
		}
	}
	for _, ni := range s.all {
		if len(ni.PodsWithAffinity) > 0 {
			s.withAffinity = append(s.withAffinity, ni)
		}
		if len(ni.PodsWithRequiredAntiAffinity) > 0 {
			s.withRequiredAnti = append(s.withRequiredAnti, ni)
		}
	}
	return s
}

// List returns the nodes in the order given.
func (s *Snapshot) List() []*framework.NodeInfo { return s.all }

// HavePodsWithAffinityList returns the nodes with pods that have affinity terms.
func (s *Snapshot) HavePodsWithAffinityList() []*framework.NodeInfo { return s.withAffinity }

// HavePodsWithRequiredAntiAffinityList returns the nodes with pods that
// have required anti-affinity terms.
func (s *Snapshot) HavePodsWithRequiredAntiAffinityList() []*framework.NodeInfo {
	return s.withRequiredAnti
}

// Get returns the named node, or an error wrapping framework.ErrNotFound.
func (s *Snapshot) Get(nodeName string) (*framework.NodeInfo, error) {
	if ni, ok := s.byName[nodeName]; ok {
		return ni, nil
	}
	return nil, fmt.Errorf("snapshot: node %q: %w", nodeName, framework.ErrNotFound)
}

// NodeInfo returns the named node's info, for calling plugins' Score; it
// panics when the snapshot has no such node (a broken test fixture).
func (s *Snapshot) NodeInfo(name string) *framework.NodeInfo {
	ni, err := s.Get(name)
	if err != nil {
		panic(err)
	}
	return ni
}
