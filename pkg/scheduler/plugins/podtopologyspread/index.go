package podtopologyspread

import (
	"strconv"
	"strings"
	"sync"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
	"platform.io/platform/pkg/scheduler/plugins/internal/topology"
)

// maxGroups bounds the constraint lists the index keeps counts for; past
// it the index starts over (matchLabelKeys can make one list per pod).
const maxGroups = 256

// domainCount is one domain of a constraint list: the matching pods in it
// and the nodes that make it (a domain exists while nodes > 0).
type domainCount struct{ pods, nodes int }

// group is the per-domain counts of one constraint list in one namespace
// over the nodes that have every key of the list.
type group struct {
	constraints []constraint
	namespace   string
	counts      map[topology.Pair]domainCount
	// byNode is what each node added, to take back when it changes.
	byNode map[string][]topology.Pair
	// podsByNode holds, per node, the pods counted for each pair above.
	podsByNode map[string][]int
}

// index keeps, across cycles, PreFilter's counts for pods whose
// constraints include every node with the keys (no node affinity to honor,
// taints ignored): then the counts do not depend on the incoming pod but
// on its constraints and namespace, and only the nodes the snapshot
// reports changed are recounted. The maps it hands out are valid until the
// next call of sync.
type index struct {
	mu sync.Mutex
	// mu guards everything below.
	lister framework.NodeInfoLister
	mark   uint64
	groups map[string]*group
}

// sync brings the index up to date with l; false when l cannot report
// its changes.
func (x *index) sync(l framework.NodeInfoLister) bool {
	ch, ok := l.(framework.NodeInfoChanges)
	if !ok {
		return false
	}
	if x.lister == l && x.groups != nil {
		if names, ok := ch.ChangedSince(x.mark); ok {
			for _, name := range names {
				ni, err := l.Get(name)
				for _, g := range x.groups {
					g.removeNode(name)
					if err == nil {
						g.addNode(name, ni)
					}
				}
			}
			x.mark = ch.ChangeMark()
			return true
		}
	}
	x.lister, x.mark, x.groups = l, ch.ChangeMark(), map[string]*group{}
	return true
}

// group returns the counts of constraints in namespace, counting every
// node the first time they are asked for.
func (x *index) group(constraints []constraint, namespace string) *group {
	sig := groupSignature(constraints, namespace)
	if g, ok := x.groups[sig]; ok {
		return g
	}
	if len(x.groups) >= maxGroups {
		x.groups = map[string]*group{}
	}
	g := &group{constraints: constraints, namespace: namespace, counts: map[topology.Pair]domainCount{},
		byNode: map[string][]topology.Pair{}, podsByNode: map[string][]int{}}
	for _, ni := range x.lister.List() {
		g.addNode(ni.Node().Name, ni)
	}
	x.groups[sig] = g
	return g
}

func (g *group) removeNode(name string) {
	pairs, pods := g.byNode[name], g.podsByNode[name]
	for i, p := range pairs {
		dc := g.counts[p]
		dc.pods -= pods[i]
		dc.nodes--
		if dc.nodes == 0 {
			delete(g.counts, p)
		} else {
			g.counts[p] = dc
		}
	}
	delete(g.byNode, name)
	delete(g.podsByNode, name)
}

func (g *group) addNode(name string, ni *framework.NodeInfo) {
	node := ni.Node()
	if node == nil || !nodeHasAllKeys(node.Labels, g.constraints) {
		return
	}
	pairs := make([]topology.Pair, len(g.constraints))
	pods := make([]int, len(g.constraints))
	for j := range g.constraints {
		c := &g.constraints[j]
		p := topology.Pair{Key: c.TopologyKey, Value: node.Labels[c.TopologyKey]}
		n := c.countMatching(ni.Pods, g.namespace)
		dc := g.counts[p]
		dc.pods += n
		dc.nodes++
		g.counts[p] = dc
		pairs[j], pods[j] = p, n
	}
	g.byNode[name], g.podsByNode[name] = pairs, pods
}

// includesAllNodes reports whether every node with the constraints' keys
// is one of their domains for pod, whatever its labels and taints.
func includesAllNodes(pod *corev1.Pod, constraints []constraint) bool {
	a := pod.Spec.Affinity
	hasNodeAffinity := len(pod.Spec.NodeSelector) > 0 ||
		(a != nil && a.NodeAffinity != nil && a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution != nil)
	for i := range constraints {
		c := &constraints[i]
		if c.NodeTaintsPolicy == corev1.NodeInclusionPolicyHonor {
			return false
		}
		if hasNodeAffinity && c.NodeAffinityPolicy == corev1.NodeInclusionPolicyHonor {
			return false
		}
	}
	return true
}

// groupSignature is equal for two constraint lists that count the same
// pods in the same domains: keys, selectors (canonical) or owners, and the
// namespace. Label keys and values cannot hold the separators.
func groupSignature(constraints []constraint, namespace string) string {
	var b strings.Builder
	b.WriteString(namespace)
	for i := range constraints {
		c := &constraints[i]
		b.WriteByte(0)
		b.WriteString(c.TopologyKey)
		b.WriteByte(0)
		switch {
		case c.Owner != "":
			b.WriteString("O" + string(c.Owner))
		case c.Selector.Empty():
			b.WriteString("E")
		case len(c.Selector.Requirements()) == 0:
			b.WriteString("N")
		default:
			b.WriteString("S" + c.Selector.String())
		}
		b.WriteByte(0)
		b.WriteString(strconv.Itoa(len(constraints)))
	}
	return b.String()
}
