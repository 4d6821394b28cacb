package garbagecollector

import (
	"sync"

	"platform.io/client/api/meta"
)

// ref is the identity of an object: where it is and its uid. Two refs name
// the same object when their coordinates match; the version is not one of
// them, since an owner may be named by any served version of its kind.
type ref struct {
	APIVersion string
	Kind       string
	Namespace  string
	Name       string
	UID        meta.UID
}

func (r ref) group() string { return meta.ParseGroupVersion(r.APIVersion).Group }

func (r ref) groupKind() groupKind { return groupKind{r.group(), r.Kind} }

// sameCoordinates reports whether r and o name the same object.
func (r ref) sameCoordinates(o ref) bool {
	return r.UID == o.UID && r.Name == o.Name && r.Kind == o.Kind &&
		r.Namespace == o.Namespace && r.group() == o.group()
}

// node is one object of the graph. A virtual node stands for an owner that
// dependents name but no informer has shown yet.
type node struct {
	id                 ref
	owners             []meta.OwnerReference
	dependents         map[*node]struct{}
	virtual            bool
	beingDeleted       bool
	deletingDependents bool // being deleted with the foregroundDeletion finalizer
}

// refTo returns n's reference to the owner uid.
func (n *node) refTo(uid meta.UID) (meta.OwnerReference, bool) {
	for _, o := range n.owners {
		if o.UID == uid {
			return o, true
		}
	}
	return meta.OwnerReference{}, false
}

// queues are where the graph sends the uids that need work.
type queues struct {
	// delete asks attemptToDelete for uid now, deleteLater after a pause.
	delete      func(uid meta.UID)
	deleteLater func(uid meta.UID)
	// orphan asks attemptToOrphan for an owner with the orphan finalizer.
	orphan func(uid meta.UID)
}

// scopeFunc reports whether a kind is namespaced, and whether it is known.
type scopeFunc func(gk groupKind) (namespaced, known bool)

// graph is the uid-keyed dependency graph, fed by informer notifications
// and by the workers' verified absences (virtual deletes).
type graph struct {
	scope  scopeFunc
	q      queues
	absent *absentCache

	mu    sync.Mutex
	nodes map[meta.UID]*node // mu guards nodes and every field of every node
}

func newGraph(scope scopeFunc, q queues, absentSize int) *graph {
	return &graph{scope: scope, q: q, absent: newAbsentCache(absentSize), nodes: map[meta.UID]*node{}}
}

// ownerRef is the identity an owner reference names, seen from a dependent
// in namespace ns: a cluster-scoped kind has no namespace.
func (g *graph) ownerRef(o meta.OwnerReference, ns string) ref {
	r := ref{APIVersion: o.APIVersion, Kind: o.Kind, Name: o.Name, UID: o.UID, Namespace: ns}
	if namespaced, known := g.scope(r.groupKind()); known && !namespaced {
		r.Namespace = ""
	}
	return r
}

func identity(res resourceInfo, m *meta.ObjectMeta) ref {
	return ref{APIVersion: res.APIVersion, Kind: res.Kind, Namespace: m.Namespace, Name: m.Name, UID: m.UID}
}

// process applies one informer notification.
func (g *graph) process(c change) {
	g.mu.Lock()
	defer g.mu.Unlock()
	id := identity(c.res, c.obj)
	n, found := g.nodes[id.UID]
	if found && n.virtual {
		g.observeLocked(n, id)
	}
	switch {
	case c.deleted:
		if found {
			g.removeLocked(n)
		}
	case !found:
		n = &node{id: id, owners: c.obj.OwnerReferences, dependents: map[*node]struct{}{}}
		n.beingDeleted = c.obj.DeletionTimestamp != nil
		n.deletingDependents = n.beingDeleted && c.obj.HasFinalizer(meta.FinalizerDeleteDependents)
		g.nodes[id.UID] = n
		g.addToOwnersLocked(n, n.owners)
		g.transitionsLocked(c.old, c.obj, n)
	default:
		added, removed, changed := diffRefs(n.owners, c.obj.OwnerReferences)
		if len(added)+len(removed)+len(changed) > 0 {
			g.unblockOwnersLocked(removed, changed)
			n.owners = c.obj.OwnerReferences
			g.addToOwnersLocked(n, added)
			g.removeFromOwnersLocked(n, removed)
		}
		if c.obj.DeletionTimestamp != nil {
			n.beingDeleted = true
		}
		g.transitionsLocked(c.old, c.obj, n)
	}
}

// observeLocked turns a virtual node into the object an informer showed;
// dependents that named it by other coordinates are checked again.
func (g *graph) observeLocked(n *node, id ref) {
	if !n.id.sameCoordinates(id) {
		_, mismatched := g.partitionLocked(n, id)
		for _, d := range mismatched {
			g.q.delete(d.id.UID)
		}
	}
	n.id, n.virtual = id, false
}

// transitionsLocked starts orphaning or foreground deletion when obj has
// just begun its deletion with the matching finalizer.
func (g *graph) transitionsLocked(old, obj *meta.ObjectMeta, n *node) {
	if startsDeletionWith(old, obj, meta.FinalizerOrphanDependents) {
		g.q.orphan(n.id.UID)
		return
	}
	if startsDeletionWith(old, obj, meta.FinalizerDeleteDependents) {
		n.deletingDependents = true
		for d := range n.dependents {
			g.q.delete(d.id.UID)
		}
		g.q.delete(n.id.UID)
	}
}

func startsDeletionWith(old, obj *meta.ObjectMeta, finalizer string) bool {
	if obj.DeletionTimestamp == nil || !obj.HasFinalizer(finalizer) {
		return false
	}
	return old == nil || old.DeletionTimestamp == nil || !old.HasFinalizer(finalizer)
}

// addToOwnersLocked records n as a dependent of the owners refs name,
// creating a virtual node, checked by a worker, for an owner not yet seen.
func (g *graph) addToOwnersLocked(n *node, refs []meta.OwnerReference) {
	for _, o := range refs {
		want := g.ownerRef(o, n.id.Namespace)
		owner, ok := g.nodes[o.UID]
		if !ok {
			owner = &node{id: want, dependents: map[*node]struct{}{}, virtual: true}
			g.nodes[o.UID] = owner
			g.q.delete(o.UID)
		} else if !owner.virtual && !owner.id.sameCoordinates(want) {
			g.q.delete(n.id.UID) // the reference names the uid at other coordinates
		}
		owner.dependents[n] = struct{}{}
	}
}

// removeFromOwnersLocked forgets n as a dependent of the owners refs name;
// a virtual owner left with no dependents leaves the graph.
func (g *graph) removeFromOwnersLocked(n *node, refs []meta.OwnerReference) {
	for _, o := range refs {
		owner, ok := g.nodes[o.UID]
		if !ok {
			continue
		}
		delete(owner.dependents, n)
		if owner.virtual && len(owner.dependents) == 0 {
			delete(g.nodes, o.UID)
		}
	}
}

// unblockOwnersLocked wakes owners waiting in foreground deletion for a
// dependent that no longer blocks them.
func (g *graph) unblockOwnersLocked(removed []meta.OwnerReference, changed [][2]meta.OwnerReference) {
	wake := func(uid meta.UID) {
		if owner, ok := g.nodes[uid]; ok && owner.deletingDependents {
			g.q.delete(uid)
		}
	}
	for _, o := range removed {
		if isTrue(o.BlockOwnerDeletion) {
			wake(o.UID)
		}
	}
	for _, c := range changed {
		if isTrue(c[0].BlockOwnerDeletion) && !isTrue(c[1].BlockOwnerDeletion) {
			wake(c[0].UID)
		}
	}
}

// removeLocked takes n out of the graph: its dependents are checked, and
// owners waiting for their dependents' deletion are told.
func (g *graph) removeLocked(n *node) {
	delete(g.nodes, n.id.UID)
	g.removeFromOwnersLocked(n, n.owners)
	if len(n.dependents) > 0 {
		g.absent.add(n.id)
	}
	for d := range n.dependents {
		g.q.delete(d.id.UID)
	}
	for _, o := range n.owners {
		if owner, ok := g.nodes[o.UID]; ok && owner.deletingDependents {
			g.q.delete(o.UID)
		}
	}
}

// virtualDelete applies a worker's finding that no object exists at the
// coordinates gone: dependents naming it there are checked again; the node
// leaves the graph unless some dependent names its uid elsewhere.
func (g *graph) virtualDelete(gone ref) {
	g.mu.Lock()
	defer g.mu.Unlock()
	n, ok := g.nodes[gone.UID]
	if !ok {
		return
	}
	matching, mismatched := g.partitionLocked(n, gone)
	if !n.virtual && !n.id.sameCoordinates(gone) || n.virtual && len(mismatched) > 0 {
		if len(matching) > 0 {
			g.absent.add(gone)
			for _, d := range matching {
				g.q.delete(d.id.UID)
			}
		}
		if n.virtual && n.id.sameCoordinates(gone) {
			d := mismatched[0]
			o, _ := d.refTo(gone.UID)
			n.id = g.ownerRef(o, d.id.Namespace)
			g.q.deleteLater(gone.UID)
		}
		return
	}
	g.removeLocked(n)
}

// partitionLocked splits n's dependents by whether their reference to n
// names the coordinates id.
func (g *graph) partitionLocked(n *node, id ref) (matching, mismatched []*node) {
	for d := range n.dependents {
		o, ok := d.refTo(n.id.UID)
		if ok && g.ownerRef(o, d.id.Namespace).sameCoordinates(id) {
			matching = append(matching, d)
		} else {
			mismatched = append(mismatched, d)
		}
	}
	return matching, mismatched
}

// diffRefs compares two lists of owner references by uid.
func diffRefs(old, cur []meta.OwnerReference) (added, removed []meta.OwnerReference, changed [][2]meta.OwnerReference) {
	byUID := make(map[meta.UID]meta.OwnerReference, len(old))
	for _, o := range old {
		byUID[o.UID] = o
	}
	for _, c := range cur {
		o, ok := byUID[c.UID]
		switch {
		case !ok:
			added = append(added, c)
		case !sameRef(o, c):
			changed = append(changed, [2]meta.OwnerReference{o, c})
		}
		delete(byUID, c.UID)
	}
	for _, o := range old {
		if _, gone := byUID[o.UID]; gone {
			removed = append(removed, o)
		}
	}
	return added, removed, changed
}

func sameRef(a, b meta.OwnerReference) bool {
	return a.APIVersion == b.APIVersion && a.Kind == b.Kind && a.Name == b.Name && a.UID == b.UID &&
		isTrue(a.Controller) == isTrue(b.Controller) && isTrue(a.BlockOwnerDeletion) == isTrue(b.BlockOwnerDeletion)
}

func isTrue(b *bool) bool { return b != nil && *b }

// forgetKind asks the workers to check every observed object of kind gk,
// once its resource is no longer served: they find the kind gone and take
// the objects out of the graph, their dependents checked again.
func (g *graph) forgetKind(gk groupKind) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for uid, n := range g.nodes {
		if !n.virtual && n.id.groupKind() == gk {
			g.q.delete(uid)
		}
	}
}
