package garbagecollector

import (
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"platform.io/client/api/meta"
)

// recorded collects what the graph asked the queues for.
type recorded struct{ delete, later, orphan []meta.UID }

func (r *recorded) queues() queues {
	return queues{
		delete:      func(u meta.UID) { r.delete = append(r.delete, u) },
		deleteLater: func(u meta.UID) { r.later = append(r.later, u) },
		orphan:      func(u meta.UID) { r.orphan = append(r.orphan, u) },
	}
}

func (r *recorded) sorted() recorded {
	out := recorded{slices.Clone(r.delete), slices.Clone(r.later), slices.Clone(r.orphan)}
	for _, s := range [][]meta.UID{out.delete, out.later, out.orphan} {
		slices.Sort(s)
	}
	return out
}

var (
	configMaps = resourceInfo{APIVersion: "v1", Kind: "ConfigMap", Namespaced: true}
	secrets    = resourceInfo{APIVersion: "v1", Kind: "Secret", Namespaced: true}
)

func testScope(gk groupKind) (bool, bool) {
	switch gk.Kind {
	case "ConfigMap", "Secret", "Pod":
		return true, true
	case "Node":
		return false, true
	}
	return false, false
}

// obj is an object in namespace ns.
func obj(name, uid string, owners ...meta.OwnerReference) *meta.ObjectMeta {
	return &meta.ObjectMeta{Namespace: "ns", Name: name, UID: meta.UID(uid), OwnerReferences: owners}
}

func owned(kind, name, uid string, block bool) meta.OwnerReference {
	return meta.OwnerReference{APIVersion: "v1", Kind: kind, Name: name, UID: meta.UID(uid), BlockOwnerDeletion: &block}
}

func deleting(m *meta.ObjectMeta, finalizers ...string) *meta.ObjectMeta {
	c := *m
	now := meta.NewTime(time.Unix(100, 0))
	c.DeletionTimestamp, c.Finalizers = &now, finalizers
	return &c
}

// step is one thing that happens to the graph.
type step struct {
	add, del   *meta.ObjectMeta
	update     [2]*meta.ObjectMeta // old, new
	res        resourceInfo        // configMaps when zero
	virtualDel *ref
	reset      bool // forget what was queued so far
}

func (s step) apply(g *graph, r *recorded) {
	res := s.res
	if res.Kind == "" {
		res = configMaps
	}
	switch {
	case s.reset:
		*r = recorded{}
	case s.add != nil:
		g.process(change{res: res, obj: s.add})
	case s.del != nil:
		g.process(change{res: res, obj: s.del, deleted: true})
	case s.update[1] != nil:
		g.process(change{res: res, old: s.update[0], obj: s.update[1]})
	case s.virtualDel != nil:
		g.virtualDelete(*s.virtualDel)
	}
}

// nodeState is what a test checks of one node.
type nodeState struct {
	Virtual, DeletingDependents bool
	Kind, Name                  string
	Dependents                  []string
}

func states(g *graph) map[meta.UID]nodeState {
	out := map[meta.UID]nodeState{}
	for uid, n := range g.nodes {
		s := nodeState{Virtual: n.virtual, DeletingDependents: n.deletingDependents, Kind: n.id.Kind, Name: n.id.Name}
		for d := range n.dependents {
			s.Dependents = append(s.Dependents, d.id.Name)
		}
		slices.Sort(s.Dependents)
		out[uid] = s
	}
	return out
}

// graphCase is a sequence of notifications and what it should leave.
type graphCase struct {
	name  string
	steps []step
	want  recorded
	nodes map[meta.UID]nodeState
}

func graphCases() []graphCase {
	owner := obj("owner", "O")
	dep := obj("dep", "D", owned("ConfigMap", "owner", "O", true))
	dep2 := obj("dep2", "D2", owned("ConfigMap", "owner", "O", false))
	ghostDep := obj("orphan", "G1", owned("ConfigMap", "ghost", "X", false))
	ghostDep2 := obj("other", "G2", owned("Secret", "elsewhere", "X", false))
	return []graphCase{{
		name:  "dependent seen before its owner: a virtual owner is checked, then observed",
		steps: []step{{add: dep}, {add: owner}},
		want:  recorded{delete: []meta.UID{"O"}},
		nodes: map[meta.UID]nodeState{
			"O": {Kind: "ConfigMap", Name: "owner", Dependents: []string{"dep"}},
			"D": {Kind: "ConfigMap", Name: "dep"},
		},
	}, {
		name:  "owner deleted: every dependent is checked",
		steps: []step{{add: owner}, {add: dep}, {add: dep2}, {del: owner}},
		want:  recorded{delete: []meta.UID{"D", "D2"}},
		nodes: map[meta.UID]nodeState{"D": {Kind: "ConfigMap", Name: "dep"}, "D2": {Kind: "ConfigMap", Name: "dep2"}},
	}, {
		name:  "foreground deletion starts: dependents and the owner are checked",
		steps: []step{{add: owner}, {add: dep}, {update: [2]*meta.ObjectMeta{owner, deleting(owner, meta.FinalizerDeleteDependents)}}},
		want:  recorded{delete: []meta.UID{"D", "O"}},
		nodes: map[meta.UID]nodeState{
			"O": {Kind: "ConfigMap", Name: "owner", DeletingDependents: true, Dependents: []string{"dep"}},
			"D": {Kind: "ConfigMap", Name: "dep"},
		},
	}, {
		name:  "an owner seen for the first time already in foreground deletion",
		steps: []step{{add: dep}, {reset: true}, {add: deleting(owner, meta.FinalizerDeleteDependents)}},
		want:  recorded{delete: []meta.UID{"D", "O"}},
		nodes: map[meta.UID]nodeState{
			"O": {Kind: "ConfigMap", Name: "owner", DeletingDependents: true, Dependents: []string{"dep"}},
			"D": {Kind: "ConfigMap", Name: "dep"},
		},
	}, {
		name:  "orphan deletion starts: the owner goes to the orphan queue only",
		steps: []step{{add: owner}, {add: dep}, {update: [2]*meta.ObjectMeta{owner, deleting(owner, meta.FinalizerOrphanDependents)}}},
		want:  recorded{orphan: []meta.UID{"O"}},
		nodes: map[meta.UID]nodeState{
			"O": {Kind: "ConfigMap", Name: "owner", Dependents: []string{"dep"}},
			"D": {Kind: "ConfigMap", Name: "dep"},
		},
	}, {
		name: "a finalizer seen again is no new transition",
		steps: []step{{add: owner}, {update: [2]*meta.ObjectMeta{owner, deleting(owner, meta.FinalizerOrphanDependents)}},
			{update: [2]*meta.ObjectMeta{deleting(owner, meta.FinalizerOrphanDependents), deleting(owner, meta.FinalizerOrphanDependents)}}},
		want:  recorded{orphan: []meta.UID{"O"}},
		nodes: map[meta.UID]nodeState{"O": {Kind: "ConfigMap", Name: "owner"}},
	}, {
		name: "a blocking dependent drops its reference: the waiting owner is woken",
		steps: []step{{add: owner}, {add: dep}, {update: [2]*meta.ObjectMeta{owner, deleting(owner, meta.FinalizerDeleteDependents)}},
			{reset: true}, {update: [2]*meta.ObjectMeta{dep, obj("dep", "D")}}},
		want: recorded{delete: []meta.UID{"O"}},
		nodes: map[meta.UID]nodeState{
			"O": {Kind: "ConfigMap", Name: "owner", DeletingDependents: true},
			"D": {Kind: "ConfigMap", Name: "dep"},
		},
	}, {
		name: "a dependent of a waiting owner is deleted: the owner is woken",
		steps: []step{{add: owner}, {add: dep}, {update: [2]*meta.ObjectMeta{owner, deleting(owner, meta.FinalizerDeleteDependents)}},
			{reset: true}, {del: dep}},
		want:  recorded{delete: []meta.UID{"O"}},
		nodes: map[meta.UID]nodeState{"O": {Kind: "ConfigMap", Name: "owner", DeletingDependents: true}},
	}, {
		name:  "a virtual owner verified absent leaves the graph and its dependent is checked",
		steps: []step{{add: ghostDep}, {reset: true}, {virtualDel: &ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "ns", Name: "ghost", UID: "X"}}},
		want:  recorded{delete: []meta.UID{"G1"}},
		nodes: map[meta.UID]nodeState{"G1": {Kind: "ConfigMap", Name: "orphan"}},
	}, {
		name: "dependents disagree on a virtual owner's coordinates: it stays under the other ones",
		steps: []step{{add: ghostDep}, {add: ghostDep2}, {reset: true},
			{virtualDel: &ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "ns", Name: "ghost", UID: "X"}}},
		want: recorded{delete: []meta.UID{"G1"}, later: []meta.UID{"X"}},
		nodes: map[meta.UID]nodeState{
			"X":  {Virtual: true, Kind: "Secret", Name: "elsewhere", Dependents: []string{"orphan", "other"}},
			"G1": {Kind: "ConfigMap", Name: "orphan"},
			"G2": {Kind: "ConfigMap", Name: "other"},
		},
	}, {
		name:  "an owner observed at other coordinates than a dependent names: the dependent is checked",
		steps: []step{{add: ghostDep}, {reset: true}, {add: obj("real", "X"), res: secrets}},
		want:  recorded{delete: []meta.UID{"G1"}},
		nodes: map[meta.UID]nodeState{
			"X":  {Kind: "Secret", Name: "real", Dependents: []string{"orphan"}},
			"G1": {Kind: "ConfigMap", Name: "orphan"},
		},
	}, {
		name:  "a virtual owner with no dependents left leaves the graph",
		steps: []step{{add: ghostDep}, {del: ghostDep}},
		want:  recorded{delete: []meta.UID{"X"}},
		nodes: map[meta.UID]nodeState{},
	}, {
		name:  "a virtual delete at other coordinates than an observed node keeps it",
		steps: []step{{add: owner}, {add: dep}, {virtualDel: &ref{APIVersion: "v1", Kind: "Secret", Namespace: "ns", Name: "owner", UID: "O"}}},
		nodes: map[meta.UID]nodeState{
			"O": {Kind: "ConfigMap", Name: "owner", Dependents: []string{"dep"}},
			"D": {Kind: "ConfigMap", Name: "dep"},
		},
	}}
}

func TestGraph(t *testing.T) {
	for _, tc := range graphCases() {
		t.Run(tc.name, func(t *testing.T) {
			var r recorded
			g := newGraph(testScope, r.queues(), 10)
			for _, s := range tc.steps {
				s.apply(g, &r)
			}
			if diff := cmp.Diff(tc.want.sorted(), r.sorted(), cmp.AllowUnexported(recorded{})); diff != "" {
				t.Errorf("queued (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.nodes, states(g)); diff != "" {
				t.Errorf("nodes (-want +got):\n%s", diff)
			}
		})
	}
}

func TestOwnerState(t *testing.T) {
	var r recorded
	g := newGraph(testScope, r.queues(), 10)
	g.process(change{res: configMaps, obj: obj("owner", "O")})
	g.process(change{res: configMaps, obj: deleting(obj("waiting", "W"), meta.FinalizerDeleteDependents)})
	g.process(change{res: configMaps, obj: obj("dep", "D", owned("ConfigMap", "virtual", "V", false))})
	g.absent.add(ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "ns", Name: "gone", UID: "G"})
	g.absent.add(ref{APIVersion: "v1", Kind: "Node", Name: "n1", UID: "N"})
	tests := []struct {
		name string
		ref  meta.OwnerReference
		ns   string
		want ownerState
	}{
		{"observed", owned("ConfigMap", "owner", "O", false), "ns", ownerSolid},
		{"observed, named with another name", owned("ConfigMap", "renamed", "O", false), "ns", ownerUnknown},
		{"observed, named from another namespace", owned("ConfigMap", "owner", "O", false), "other", ownerUnknown},
		{"in foreground deletion", owned("ConfigMap", "waiting", "W", false), "ns", ownerWaiting},
		{"virtual", owned("ConfigMap", "virtual", "V", false), "ns", ownerUnknown},
		{"never seen", owned("ConfigMap", "who", "U", false), "ns", ownerUnknown},
		{"verified absent", owned("ConfigMap", "gone", "G", false), "ns", ownerDangling},
		{"verified absent, other version", meta.OwnerReference{APIVersion: "v2", Kind: "ConfigMap", Name: "gone", UID: "G"}, "ns", ownerDangling},
		{"cluster-scoped owner absent, named from any namespace", owned("Node", "n1", "N", false), "ns", ownerDangling},
	}
	for _, tc := range tests {
		if got, _ := g.owner(tc.ref, tc.ns); got != tc.want {
			t.Errorf("%s: state %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestAbsentCacheEvictsOldest(t *testing.T) {
	c := newAbsentCache(2)
	a, b, d := ref{UID: "a"}, ref{UID: "b"}, ref{UID: "d"}
	c.add(a)
	c.add(b)
	c.add(a) // no-op: already there
	c.add(d)
	if c.has(a) || !c.has(b) || !c.has(d) {
		t.Errorf("after three adds to a cache of two: a %v b %v d %v", c.has(a), c.has(b), c.has(d))
	}
}
