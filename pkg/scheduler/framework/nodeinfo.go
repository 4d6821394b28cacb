package framework

import (
	"fmt"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/labels"
	"platform.io/client/api/meta"
)

// AffinityTerm is a parsed PodAffinityTerm: the selector of the pods it
// is about, their namespaces, and the topology key.
type AffinityTerm struct {
	Selector labels.Selector
	// Namespaces are the namespaces named, or the pod's own when the term
	// names none and has no NamespaceSelector.
	Namespaces map[string]bool
	// NamespaceSelector selects further namespaces by their labels; nil
	// for none, labels.Everything() for all namespaces.
	NamespaceSelector labels.Selector
	TopologyKey       string
}

// Matches reports whether pod (whose namespace has labels nsLabels) is
// one of the pods the term selects.
func (t *AffinityTerm) Matches(pod *corev1.Pod, nsLabels labels.Set) bool {
	if !t.Namespaces[pod.Namespace] && (t.NamespaceSelector == nil || !t.NamespaceSelector.Matches(nsLabels)) {
		return false
	}
	return t.Selector.Matches(labels.Set(pod.Labels))
}

// WeightedAffinityTerm is a preferred term with its weight.
type WeightedAffinityTerm struct {
	AffinityTerm
	Weight int32
}

// PodInfo is a pod with its affinity terms parsed once.
type PodInfo struct {
	Pod                        *corev1.Pod
	RequiredAffinityTerms      []AffinityTerm
	RequiredAntiAffinityTerms  []AffinityTerm
	PreferredAffinityTerms     []WeightedAffinityTerm
	PreferredAntiAffinityTerms []WeightedAffinityTerm
	// Requests is PodRequests(Pod); NonZeroCPU and NonZeroMemory are
	// NonZeroRequests(Pod).
	Requests                  *Resource
	NonZeroCPU, NonZeroMemory int64
}

// NewPodInfo parses pod's affinity terms and requests. A term whose
// selector does not parse selects nothing (validation keeps such pods out
// of the API; this only guards the scheduler).
func NewPodInfo(pod *corev1.Pod) *PodInfo {
	pi := &PodInfo{Pod: pod, Requests: PodRequests(pod)}
	pi.NonZeroCPU, pi.NonZeroMemory = NonZeroRequests(pod)
	a := pod.Spec.Affinity
	if a == nil {
		return pi
	}
	if a.PodAffinity != nil {
		pi.RequiredAffinityTerms = terms(pod, a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution)
		pi.PreferredAffinityTerms = weightedTerms(pod, a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution)
	}
	if a.PodAntiAffinity != nil {
		pi.RequiredAntiAffinityTerms = terms(pod, a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution)
		pi.PreferredAntiAffinityTerms = weightedTerms(pod, a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution)
	}
	return pi
}

func terms(pod *corev1.Pod, in []corev1.PodAffinityTerm) []AffinityTerm {
	out := make([]AffinityTerm, 0, len(in))
	for i := range in {
		out = append(out, NewAffinityTerm(pod, &in[i]))
	}
	return out
}

func weightedTerms(pod *corev1.Pod, in []corev1.WeightedPodAffinityTerm) []WeightedAffinityTerm {
	out := make([]WeightedAffinityTerm, 0, len(in))
	for i := range in {
		out = append(out, WeightedAffinityTerm{AffinityTerm: NewAffinityTerm(pod, &in[i].PodAffinityTerm), Weight: in[i].Weight})
	}
	return out
}

// NewAffinityTerm parses t as written in pod's spec.
func NewAffinityTerm(pod *corev1.Pod, t *corev1.PodAffinityTerm) AffinityTerm {
	sel := selectorOrNothing(t.LabelSelector)
	// matchLabelKeys and mismatchLabelKeys add the pod's own values.
	if len(t.MatchLabelKeys)+len(t.MismatchLabelKeys) > 0 && !isNothing(sel) {
		reqs := sel.Requirements()
		add := func(keys []string, op labels.Operator) {
			for _, k := range keys {
				if v, ok := pod.Labels[k]; ok {
					if r, err := labels.NewRequirement(k, op, []string{v}); err == nil {
						reqs = append(reqs, r)
					}
				}
			}
		}
		add(t.MatchLabelKeys, labels.Equals)
		add(t.MismatchLabelKeys, labels.NotEquals)
		sel = labels.NewSelector(reqs...)
	}
	at := AffinityTerm{Selector: sel, TopologyKey: t.TopologyKey, Namespaces: map[string]bool{}}
	for _, ns := range t.Namespaces {
		at.Namespaces[ns] = true
	}
	if t.NamespaceSelector != nil {
		at.NamespaceSelector = selectorOrNothing(t.NamespaceSelector)
	} else if len(t.Namespaces) == 0 {
		at.Namespaces[pod.Namespace] = true
	}
	return at
}

// isNothing reports the selector that matches nothing.
func isNothing(s labels.Selector) bool { return s.String() == labels.Nothing().String() && !s.Empty() }

// selectorOrNothing converts ls; nil or unparsable selects nothing.
func selectorOrNothing(ls *meta.LabelSelector) labels.Selector {
	if ls == nil {
		return labels.Nothing()
	}
	s, err := labels.FromLabelSelector(ls)
	if err != nil {
		return labels.Nothing()
	}
	return s
}

// HostPort is one host port a pod uses.
type HostPort struct {
	IP       string
	Protocol corev1.Protocol
	Port     int32
}

// ImageStateSummary is an image on a node and how many nodes have it.
type ImageStateSummary struct {
	Size     int64
	NumNodes int
}

// NodeInfo is the scheduler's view of one node: the node, the pods on it
// (bound or assumed), and their sums. The cache owns NodeInfos; a cycle
// reads clones in its snapshot.
type NodeInfo struct {
	node *corev1.Node
	// Pods are the pods on the node.
	Pods []*PodInfo
	// PodsWithAffinity and PodsWithRequiredAntiAffinity are the subsets
	// with (any) affinity terms and with required anti-affinity terms.
	PodsWithAffinity             []*PodInfo
	PodsWithRequiredAntiAffinity []*PodInfo
	// UsedPorts are the host ports the pods use.
	UsedPorts map[HostPort]bool
	// Requested sums the pods' requests; NonZeroRequested the same with
	// the scoring defaults; Allocatable is the node's. They are values,
	// not pointers, so that the filters and scorers reading them for
	// thousands of nodes per pod find them on the NodeInfo's own cache lines.
	Requested        Resource
	NonZeroRequested Resource
	Allocatable      Resource
	// ConditionTaints are the taint keys the node's conditions stand for
	// (not ready, unreachable, network unavailable, pressure), read from
	// the node once when it is set, since filters check them for thousands
	// of nodes per pod; nil for a healthy node. Shared read-only.
	ConditionTaints []string
	// ImageStates are the node's images ("name" -> summary), all names
	// of an image listed.
	ImageStates map[string]*ImageStateSummary
	// Generation rises on every change, for incremental snapshots.
	Generation int64
}

// NewNodeInfo returns a node info holding pods (the node is set later).
func NewNodeInfo(pods ...*corev1.Pod) *NodeInfo {
	ni := &NodeInfo{
		UsedPorts: map[HostPort]bool{},
	}
	for _, p := range pods {
		ni.AddPod(p)
	}
	return ni
}

// Node returns the node, nil when only pods are known.
func (n *NodeInfo) Node() *corev1.Node {
	if n == nil {
		return nil
	}
	return n.node
}

// SetNode sets the node and its allocatable resources.
func (n *NodeInfo) SetNode(node *corev1.Node) {
	n.node = node
	n.Allocatable = *NewResource(node.Status.Allocatable)
	n.ConditionTaints = conditionTaints(node)
	n.Generation++
}

// AddPod adds pod.
func (n *NodeInfo) AddPod(pod *corev1.Pod) { n.AddPodInfo(NewPodInfo(pod)) }

// AddPodInfo adds a parsed pod.
func (n *NodeInfo) AddPodInfo(pi *PodInfo) {
	n.Pods = append(n.Pods, pi)
	if len(pi.RequiredAffinityTerms)+len(pi.RequiredAntiAffinityTerms)+len(pi.PreferredAffinityTerms)+len(pi.PreferredAntiAffinityTerms) > 0 {
		n.PodsWithAffinity = append(n.PodsWithAffinity, pi)
	}
	if len(pi.RequiredAntiAffinityTerms) > 0 {
		n.PodsWithRequiredAntiAffinity = append(n.PodsWithRequiredAntiAffinity, pi)
	}
	n.update(pi, 1)
}

// RemovePod removes the pod with pod's UID; it is an error if absent.
func (n *NodeInfo) RemovePod(pod *corev1.Pod) error {
	for i, pi := range n.Pods {
		if pi.Pod.UID != pod.UID {
			continue
		}
		n.Pods = append(n.Pods[:i], n.Pods[i+1:]...)
		n.PodsWithAffinity = removeUID(n.PodsWithAffinity, pod.UID)
		n.PodsWithRequiredAntiAffinity = removeUID(n.PodsWithRequiredAntiAffinity, pod.UID)
		n.update(pi, -1)
		return nil
	}
	return fmt.Errorf("framework: pod %s/%s is not on node %s", pod.Namespace, pod.Name, n.nodeName())
}

func (n *NodeInfo) nodeName() string {
	if n.node == nil {
		return "<unknown>"
	}
	return n.node.Name
}

func removeUID(pis []*PodInfo, uid meta.UID) []*PodInfo {
	for i, pi := range pis {
		if pi.Pod.UID == uid {
			return append(pis[:i:i], pis[i+1:]...)
		}
	}
	return pis
}

// update adds (sign 1) or subtracts (-1) pi's requests and ports.
func (n *NodeInfo) update(pi *PodInfo, sign int64) {
	req := pi.Requests
	if sign > 0 {
		n.Requested.AddResource(req)
	} else {
		n.Requested.SubResource(req)
	}
	n.NonZeroRequested.MilliCPU += sign * pi.NonZeroCPU
	n.NonZeroRequested.Memory += sign * pi.NonZeroMemory
	for _, c := range pi.Pod.Spec.Containers {
		for _, p := range c.Ports {
			if p.HostPort <= 0 {
				continue
			}
			hp := HostPort{IP: p.HostIP, Protocol: p.Protocol, Port: p.HostPort}
			if hp.IP == "" {
				hp.IP = "0.0.0.0"
			}
			if hp.Protocol == "" {
				hp.Protocol = corev1.ProtocolTCP
			}
			if sign > 0 {
				n.UsedPorts[hp] = true
			} else {
				delete(n.UsedPorts, hp)
			}
		}
	}
	n.Generation++
}

// Clone returns a copy that shares the pods (read-only) but not the
// slices, maps and sums.
func (n *NodeInfo) Clone() *NodeInfo {
	c := &NodeInfo{
		node:                         n.node,
		Pods:                         append([]*PodInfo(nil), n.Pods...),
		PodsWithAffinity:             append([]*PodInfo(nil), n.PodsWithAffinity...),
		PodsWithRequiredAntiAffinity: append([]*PodInfo(nil), n.PodsWithRequiredAntiAffinity...),
		UsedPorts:                    make(map[HostPort]bool, len(n.UsedPorts)),
		Requested:                    *n.Requested.Clone(),
		NonZeroRequested:             *n.NonZeroRequested.Clone(),
		Allocatable:                  *n.Allocatable.Clone(),
		ConditionTaints:              n.ConditionTaints,
		ImageStates:                  n.ImageStates,
		Generation:                   n.Generation,
	}
	for k, v := range n.UsedPorts {
		c.UsedPorts[k] = v
	}
	return c
}
