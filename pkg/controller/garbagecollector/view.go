package garbagecollector

import (
	"slices"

	"platform.io/client/api/meta"
)

// view is a worker's copy of one node, taken under the graph's lock.
type view struct {
	id                 ref
	owners             []meta.OwnerReference
	virtual            bool
	beingDeleted       bool
	deletingDependents bool
	dependents         []dependent
}

// dependent is a view of one dependent of a node.
type dependent struct {
	id                 ref
	deletingDependents bool
	// blocking: its reference to the node has blockOwnerDeletion set.
	blocking bool
}

// view returns a copy of the node uid.
func (g *graph) view(uid meta.UID) (view, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	n, ok := g.nodes[uid]
	if !ok {
		return view{}, false
	}
	v := view{id: n.id, owners: slices.Clone(n.owners), virtual: n.virtual,
		beingDeleted: n.beingDeleted, deletingDependents: n.deletingDependents}
	for d := range n.dependents {
		o, _ := d.refTo(uid)
		v.dependents = append(v.dependents, dependent{id: d.id, deletingDependents: d.deletingDependents,
			blocking: isTrue(o.BlockOwnerDeletion)})
	}
	slices.SortFunc(v.dependents, func(a, b dependent) int { return compareRefs(a.id, b.id) })
	return v, true
}

func compareRefs(a, b ref) int {
	for _, c := range [][2]string{{a.Namespace, b.Namespace}, {a.Kind, b.Kind}, {a.Name, b.Name}, {string(a.UID), string(b.UID)}} {
		if c[0] != c[1] {
			if c[0] < c[1] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// ownerState is what is known of an owner without asking the API server.
type ownerState int

const (
	ownerUnknown  ownerState = iota // not observed at these coordinates: ask
	ownerSolid                      // exists and is not waiting for its dependents
	ownerDangling                   // verified absent at these coordinates
	ownerWaiting                    // in foreground deletion, waiting for its dependents
)

// owner returns what the graph knows of the owner o of a dependent in
// namespace ns, and the identity o names.
func (g *graph) owner(o meta.OwnerReference, ns string) (ownerState, ref) {
	id := g.ownerRef(o, ns)
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.absent.has(id) {
		return ownerDangling, id
	}
	n, ok := g.nodes[o.UID]
	switch {
	case !ok || n.virtual || !n.id.sameCoordinates(id):
		return ownerUnknown, id
	case n.deletingDependents:
		return ownerWaiting, id
	}
	return ownerSolid, id
}

// len returns the number of nodes, virtual ones included.
func (g *graph) len() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.nodes)
}
