package garbagecollector

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"platform.io/client/api/meta"
)

func oref(uid string) meta.OwnerReference {
	return meta.OwnerReference{APIVersion: "v1", Kind: "ConfigMap", Name: "o-" + uid, UID: meta.UID(uid)}
}

func TestDecide(t *testing.T) {
	refs := func(uids ...string) []meta.OwnerReference {
		var out []meta.OwnerReference
		for _, u := range uids {
			out = append(out, oref(u))
		}
		return out
	}
	tests := []struct {
		name                     string
		solid, dangling, waiting []meta.OwnerReference
		it                       item
		want                     verdict
	}{
		{name: "all owners solid", solid: refs("a", "b"), want: verdict{}},
		{name: "solid owner keeps it, dangling and waiting references go",
			solid: refs("a"), dangling: refs("b"), waiting: refs("c"),
			want: verdict{removeRefs: []meta.UID{"b", "c"}}},
		{name: "all dangling: background", dangling: refs("a"),
			want: verdict{delete: true, policy: meta.DeletePropagationBackground}},
		{name: "all dangling, own orphan finalizer", dangling: refs("a"),
			it:   item{finalizers: []string{meta.FinalizerOrphanDependents}},
			want: verdict{delete: true, policy: meta.DeletePropagationOrphan}},
		{name: "all dangling, own foreground finalizer", dangling: refs("a"),
			it:   item{finalizers: []string{"example.com/x", meta.FinalizerDeleteDependents}},
			want: verdict{delete: true, policy: meta.DeletePropagationForeground}},
		{name: "owner waits, no dependents of its own: as its finalizers say", waiting: refs("a"),
			want: verdict{delete: true, policy: meta.DeletePropagationBackground}},
		{name: "owner waits, has dependents: foreground", waiting: refs("a"), dangling: refs("b"),
			it:   item{hasDependents: true},
			want: verdict{delete: true, policy: meta.DeletePropagationForeground}},
		{name: "owner waits, a dependent is itself deleting its dependents: unblock first",
			waiting: refs("a", "b"), it: item{hasDependents: true, dependentDeletingDependents: true},
			want: verdict{delete: true, policy: meta.DeletePropagationForeground, unblock: []meta.UID{"a", "b"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := decide(tc.solid, tc.dangling, tc.waiting, tc.it)
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(verdict{})); diff != "" {
				t.Errorf("decide (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBlockers(t *testing.T) {
	deps := []dependent{
		{id: ref{Name: "a"}, blocking: true},
		{id: ref{Name: "b"}},
		{id: ref{Name: "c"}, blocking: true, deletingDependents: true},
	}
	got := blockers(deps)
	want := []dependent{deps[0], deps[2]}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(dependent{}, ref{})); diff != "" {
		t.Errorf("blockers (-want +got):\n%s", diff)
	}
	if got := blockers(deps[1:2]); len(got) != 0 {
		t.Errorf("blockers of a non-blocking dependent: %v", got)
	}
}

func TestDiffRefs(t *testing.T) {
	yes, no := true, false
	a, b, c := oref("a"), oref("b"), oref("c")
	b2 := b
	b2.BlockOwnerDeletion = &yes
	a2 := a
	a2.BlockOwnerDeletion = &no // false and unset are the same
	added, removed, changed := diffRefs([]meta.OwnerReference{a, b}, []meta.OwnerReference{a2, b2, c})
	want := struct{ Added, Removed []meta.OwnerReference }{Added: []meta.OwnerReference{c}}
	got := struct{ Added, Removed []meta.OwnerReference }{added, removed}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diffRefs (-want +got):\n%s", diff)
	}
	if len(changed) != 1 || changed[0][0].UID != "b" || !isTrue(changed[0][1].BlockOwnerDeletion) {
		t.Errorf("changed = %+v", changed)
	}
	_, removed, _ = diffRefs([]meta.OwnerReference{a, b}, nil)
	if len(removed) != 2 {
		t.Errorf("removed = %+v", removed)
	}
}

func TestPatches(t *testing.T) {
	tests := []struct {
		name string
		got  []byte
		want string
	}{
		{"remove references", strategicPatch("me", metaChange{removeOwners: []meta.UID{"a", "b"}}),
			`{"metadata":{"ownerReferences":[{"$patch":"delete","uid":"a"},{"$patch":"delete","uid":"b"}],"uid":"me"}}`},
		{"unblock", strategicPatch("me", metaChange{unblock: []meta.UID{"a"}}),
			`{"metadata":{"ownerReferences":[{"blockOwnerDeletion":false,"uid":"a"}],"uid":"me"}}`},
		{"remove finalizer", strategicPatch("me", metaChange{finalizer: "orphan"}),
			`{"metadata":{"$deleteFromPrimitiveList/finalizers":["orphan"],"uid":"me"}}`},
		{"merge: remove a reference", mergeOf(metaChange{removeOwners: []meta.UID{"a"}}),
			`{"metadata":{"ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"b","uid":"b","blockOwnerDeletion":true}],"resourceVersion":"7","uid":"me"}}`},
		{"merge: unblock", mergeOf(metaChange{unblock: []meta.UID{"b"}}),
			`{"metadata":{"ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"a","uid":"a"},{"apiVersion":"v1","kind":"ConfigMap","name":"b","uid":"b","blockOwnerDeletion":false}],"resourceVersion":"7","uid":"me"}}`},
		{"merge: remove the last finalizer", mergeOf(metaChange{finalizer: "foregroundDeletion"}),
			`{"metadata":{"finalizers":[],"resourceVersion":"7","uid":"me"}}`},
		{"merge: nothing to do", mergeOf(metaChange{removeOwners: []meta.UID{"c"}, finalizer: "orphan"}), ""},
	}
	for _, tc := range tests {
		if string(tc.got) != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, tc.got, tc.want)
		}
	}
}

// mergeOf is the merge patch of mc on an object with two owners, the
// second blocking, and the foregroundDeletion finalizer; "" when it
// changes nothing.
func mergeOf(mc metaChange) []byte {
	block := true
	m := &meta.ObjectMeta{UID: "me", ResourceVersion: "7", Finalizers: []string{"foregroundDeletion"}, OwnerReferences: []meta.OwnerReference{
		{APIVersion: "v1", Kind: "ConfigMap", Name: "a", UID: "a"},
		{APIVersion: "v1", Kind: "ConfigMap", Name: "b", UID: "b", BlockOwnerDeletion: &block},
	}}
	data, changed := mergePatch(m, mc)
	if !changed {
		return nil
	}
	return data
}
