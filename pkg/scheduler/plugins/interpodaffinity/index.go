package interpodaffinity

import (
	"slices"
	"strings"
	"sync"

	"platform.io/platform/pkg/scheduler/framework"
	"platform.io/platform/pkg/scheduler/plugins/internal/topology"
)

// maxIncomingGroups bounds the incoming pods' term lists the index keeps
// counts for; past it the index starts over (terms with matchLabelKeys
// can make one list per pod).
const maxIncomingGroups = 256

// group is the per-domain counts of one term list. For an existing pod's
// anti-affinity term (one term) it counts the (pod, term) pairs placed in
// each domain; for an incoming pod's list it counts, for each term, the
// placed pods that match every term of the list.
type group struct {
	sig    string
	terms  []framework.AffinityTerm
	counts topologyToMatchedTermCount
	// refs counts the contributions to counts (existing groups are
	// dropped when it reaches 0).
	refs int
}

// contribution is what one node added to one group's domain.
type contribution struct {
	g    *group
	pair topology.Pair
	n    int64
}

// index keeps, across cycles, the counts PreFilter would otherwise make
// by reading every placed pod: existing pods' required anti-affinity
// terms grouped by signature, and the counts of incoming pods' term lists
// that were asked for. Only the nodes the snapshot reports changed are
// recounted. The maps it hands out are valid until the next call of
// sync: a cycle reads them (in parallel) and never writes them.
type index struct {
	mu sync.Mutex
	// mu guards everything below.
	lister   framework.NodeInfoLister
	mark     uint64
	existing map[string]*group
	incoming map[string]*group
	byNode   map[string][]contribution
}

// sync brings the index up to date with l; false when l cannot report
// its changes (then the caller counts from scratch).
func (x *index) sync(pl *Plugin, l framework.NodeInfoLister) bool {
	ch, ok := l.(framework.NodeInfoChanges)
	if !ok {
		return false
	}
	if x.lister == l && x.existing != nil {
		names, ok := ch.ChangedSince(x.mark)
		if ok {
			for _, name := range names {
				x.removeNode(name)
				if ni, err := l.Get(name); err == nil {
					x.addNode(pl, name, ni, x.existing, x.incoming)
				}
			}
			x.mark = ch.ChangeMark()
			return true
		}
	}
	x.reset(l, ch.ChangeMark())
	for _, ni := range l.List() {
		x.addNode(pl, ni.Node().Name, ni, x.existing, nil)
	}
	return true
}

func (x *index) reset(l framework.NodeInfoLister, mark uint64) {
	x.lister, x.mark = l, mark
	x.existing = map[string]*group{}
	x.incoming = map[string]*group{}
	x.byNode = map[string][]contribution{}
}

func (x *index) removeNode(name string) {
	for _, c := range x.byNode[name] {
		c.g.counts.addPair(c.pair, -c.n)
		c.g.refs--
		if c.g.refs == 0 && x.existing[c.g.sig] == c.g {
			delete(x.existing, c.g.sig)
		}
	}
	delete(x.byNode, name)
}

// addNode counts ni's pods into the existing groups (creating them; nil
// to skip) and into the incoming groups given.
func (x *index) addNode(pl *Plugin, name string, ni *framework.NodeInfo, existing, incoming map[string]*group) {
	node := ni.Node()
	if node == nil {
		return
	}
	contribs := x.byNode[name]
	if existing != nil {
		for _, pi := range ni.PodsWithRequiredAntiAffinity {
			for i := range pi.RequiredAntiAffinityTerms {
				t := &pi.RequiredAntiAffinityTerms[i]
				p, ok := topology.NodePair(node, t.TopologyKey)
				if !ok {
					continue
				}
				sig := termSignature(t)
				g := existing[sig]
				if g == nil {
					g = &group{sig: sig, terms: pi.RequiredAntiAffinityTerms[i : i+1], counts: topologyToMatchedTermCount{}}
					existing[sig] = g
				}
				contribs = x.contribute(contribs, g, p, 1)
			}
		}
	}
	for _, g := range incoming {
		contribs = x.countIncoming(pl, contribs, g, ni)
	}
	if len(contribs) > 0 {
		x.byNode[name] = contribs
	}
}

// contribute adds n to g's domain p, merging with the node's last
// contribution to the same group and domain.
func (x *index) contribute(contribs []contribution, g *group, p topology.Pair, n int64) []contribution {
	g.counts.addPair(p, n)
	if k := len(contribs) - 1; k >= 0 && contribs[k].g == g && contribs[k].pair == p {
		contribs[k].n += n
		return contribs
	}
	g.refs++
	return append(contribs, contribution{g: g, pair: p, n: n})
}

// countIncoming adds to g the node's pods that match all of g's terms.
func (x *index) countIncoming(pl *Plugin, contribs []contribution, g *group, ni *framework.NodeInfo) []contribution {
	var n int64
	for _, pi := range ni.Pods {
		if pl.matchesAll(g.terms, pi.Pod) {
			n++
		}
	}
	if n == 0 {
		return contribs
	}
	for i := range g.terms {
		if p, ok := topology.NodePair(ni.Node(), g.terms[i].TopologyKey); ok {
			contribs = x.contribute(contribs, g, p, n)
		}
	}
	return contribs
}

// incomingGroup returns the counts of terms, counting them over every
// node the first time they are asked for.
func (x *index) incomingGroup(pl *Plugin, terms []framework.AffinityTerm) topologyToMatchedTermCount {
	var b strings.Builder
	for i := range terms {
		b.WriteString(termSignature(&terms[i]))
		b.WriteByte(1)
	}
	sig := b.String()
	if g, ok := x.incoming[sig]; ok {
		return g.counts
	}
	if len(x.incoming) >= maxIncomingGroups {
		// Start over: sync recounts the existing groups next cycle.
		x.existing = nil
		x.incoming = map[string]*group{}
	}
	g := &group{sig: sig, terms: terms, counts: topologyToMatchedTermCount{}}
	x.incoming[sig] = g
	one := map[string]*group{sig: g}
	for _, ni := range x.lister.List() {
		x.addNode(pl, ni.Node().Name, ni, nil, one)
	}
	return g.counts
}

// cacheable reports whether counts of terms can be kept across cycles:
// not when a namespaceSelector decides, as namespace labels change
// without any node changing.
func cacheable(terms []framework.AffinityTerm) bool {
	for i := range terms {
		if terms[i].NamespaceSelector != nil {
			return false
		}
	}
	return true
}

// termSignature is equal for two terms exactly when they select the same
// pods in the same domains: the selector's canonical requirements, the
// namespaces sorted, the namespace selector and the topology key. Label
// keys and values cannot hold the separators.
func termSignature(t *framework.AffinityTerm) string {
	var b strings.Builder
	writeSelector := func(empty bool, s string, nothing bool) {
		switch {
		case nothing:
			b.WriteString("N")
		case empty:
			b.WriteString("E")
		default:
			b.WriteString("S")
			b.WriteString(s)
		}
		b.WriteByte(0)
	}
	writeSelector(t.Selector.Empty(), t.Selector.String(), !t.Selector.Empty() && len(t.Selector.Requirements()) == 0)
	ns := make([]string, 0, len(t.Namespaces))
	for n, ok := range t.Namespaces {
		if ok {
			ns = append(ns, n)
		}
	}
	slices.Sort(ns)
	b.WriteString(strings.Join(ns, ","))
	b.WriteByte(0)
	if t.NamespaceSelector == nil {
		b.WriteString("-")
		b.WriteByte(0)
	} else {
		s := t.NamespaceSelector
		writeSelector(s.Empty(), s.String(), !s.Empty() && len(s.Requirements()) == 0)
	}
	b.WriteString(t.TopologyKey)
	return b.String()
}
