package history

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
)

func template(image string) *corev1.PodTemplateSpec {
	return &corev1.PodTemplateSpec{
		ObjectMeta: meta.ObjectMeta{Labels: map[string]string{"app": "web"}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: image}}},
	}
}

func owner(uid meta.UID) meta.OwnerReference {
	yes := true
	return meta.OwnerReference{APIVersion: "apps/v1", Kind: "StatefulSet", Name: "web", UID: uid, Controller: &yes}
}

func mustRevision(t *testing.T, image string, number int64, cc *int32) *appsv1.ControllerRevision {
	t.Helper()
	data, err := TemplateData(template(image))
	if err != nil {
		t.Fatal(err)
	}
	return New(&meta.ObjectMeta{Name: "web", Namespace: "ns"}, owner("u1"), map[string]string{"app": "web"}, data, number, cc)
}

func TestHash(t *testing.T) {
	one, two := int32(1), int32(2)
	a := Hash([]byte("x"), nil)
	if a != Hash([]byte("x"), nil) {
		t.Fatal("hash not deterministic")
	}
	seen := map[string]bool{a: true}
	for _, h := range []string{Hash([]byte("y"), nil), Hash([]byte("x"), &one), Hash([]byte("x"), &two)} {
		if seen[h] {
			t.Errorf("hash %q repeats", h)
		}
		seen[h] = true
	}
	for _, c := range a {
		if !containsRune(safeAlphabet, c) {
			t.Errorf("hash %q has %q outside the alphabet", a, c)
		}
	}
}

func containsRune(s string, r rune) bool {
	for _, c := range s {
		if c == r {
			return true
		}
	}
	return false
}

func TestTemplateRoundTrip(t *testing.T) {
	rev := mustRevision(t, "nginx:1", 1, nil)
	got, err := Template(rev)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(template("nginx:1"), got); diff != "" {
		t.Errorf("template (-want +got):\n%s", diff)
	}
	if rev.Labels[HashLabel] == "" || rev.Name != "web-"+rev.Labels[HashLabel] || rev.Namespace != "ns" {
		t.Errorf("revision meta %+v", rev.ObjectMeta)
	}
}

func TestEqual(t *testing.T) {
	a := mustRevision(t, "nginx:1", 1, nil)
	b := mustRevision(t, "nginx:1", 7, nil)
	b.Data.Raw = []byte(" " + string(b.Data.Raw) + " ")
	c := mustRevision(t, "nginx:2", 1, nil)
	if !Equal(a, b) {
		t.Error("same data differently spaced is not equal")
	}
	if Equal(a, c) {
		t.Error("different templates are equal")
	}
	if got := FindEqual([]*appsv1.ControllerRevision{c, a, b}, a); len(got) != 2 {
		t.Errorf("FindEqual found %d", len(got))
	}
}

func named(name string, number int64) *appsv1.ControllerRevision {
	return &appsv1.ControllerRevision{ObjectMeta: meta.ObjectMeta{Name: name}, Revision: number}
}

func names(revs []*appsv1.ControllerRevision) []string {
	var out []string
	for _, r := range revs {
		out = append(out, r.Name)
	}
	return out
}

func TestToDelete(t *testing.T) {
	revs := []*appsv1.ControllerRevision{named("r3", 3), named("r1", 1), named("r5", 5), named("r2", 2), named("r4", 4)}
	tests := []struct {
		name  string
		live  map[string]bool
		limit int32
		want  []string
	}{
		{"under the limit", nil, 10, nil},
		{"oldest first", nil, 2, []string{"r1", "r2", "r3"}},
		{"live kept", map[string]bool{"r1": true, "r5": true}, 1, []string{"r2", "r3"}},
		{"zero keeps only live", map[string]bool{"r4": true}, 0, []string{"r1", "r2", "r3", "r5"}},
		{"negative is zero", nil, -1, []string{"r1", "r2", "r3", "r4", "r5"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, names(ToDelete(revs, tc.live, tc.limit))); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	if Next(revs) != 6 || Next(nil) != 1 {
		t.Errorf("Next = %d, %d", Next(revs), Next(nil))
	}
}

func TestSortAndOwned(t *testing.T) {
	early := named("b", 1)
	early.CreationTimestamp = meta.NewTime(time.Unix(100, 0))
	late := named("a", 1)
	late.CreationTimestamp = meta.NewTime(time.Unix(200, 0))
	revs := []*appsv1.ControllerRevision{named("z", 2), late, early}
	Sort(revs)
	if diff := cmp.Diff([]string{"b", "a", "z"}, names(revs)); diff != "" {
		t.Errorf("sort (-want +got):\n%s", diff)
	}
	mine := named("mine", 1)
	mine.OwnerReferences = []meta.OwnerReference{owner("u1")}
	other := named("other", 1)
	other.OwnerReferences = []meta.OwnerReference{owner("u2")}
	if diff := cmp.Diff([]string{"mine"}, names(Owned([]*appsv1.ControllerRevision{mine, other, named("orphan", 1)}, "u1"))); diff != "" {
		t.Errorf("owned (-want +got):\n%s", diff)
	}
}

// fakeClient stores revisions by name, as the API server would.
type fakeClient struct {
	revs map[string]*appsv1.ControllerRevision
}

func (f *fakeClient) Create(_ context.Context, rev *appsv1.ControllerRevision, _ meta.WriteOptions) (*appsv1.ControllerRevision, error) {
	if _, ok := f.revs[rev.Name]; ok {
		return nil, apierrors.NewAlreadyExists(meta.GroupResource{Group: "apps", Resource: "controllerrevisions"}, rev.Name)
	}
	cp := *rev
	f.revs[rev.Name] = &cp
	return &cp, nil
}

func (f *fakeClient) Get(_ context.Context, name string, _ meta.GetOptions) (*appsv1.ControllerRevision, error) {
	if r, ok := f.revs[name]; ok {
		return r, nil
	}
	return nil, apierrors.NewNotFound(meta.GroupResource{Group: "apps", Resource: "controllerrevisions"}, name)
}

func (f *fakeClient) Update(_ context.Context, rev *appsv1.ControllerRevision, _ meta.WriteOptions) (*appsv1.ControllerRevision, error) {
	cp := *rev
	f.revs[rev.Name] = &cp
	return &cp, nil
}

func (f *fakeClient) Delete(_ context.Context, name string, _ *meta.DeleteOptions) error {
	delete(f.revs, name)
	return nil
}

func TestCreate(t *testing.T) {
	ctx := context.Background()
	t.Run("same revision twice is found", func(t *testing.T) {
		c := &fakeClient{revs: map[string]*appsv1.ControllerRevision{}}
		var cc int32
		first, err := Create(ctx, c, mustRevision(t, "nginx:1", 1, &cc), &cc)
		if err != nil {
			t.Fatal(err)
		}
		again, err := Create(ctx, c, mustRevision(t, "nginx:1", 1, &cc), &cc)
		if err != nil || again.Name != first.Name || cc != 0 {
			t.Errorf("second create: %v, %s vs %s, collisions %d", err, again.Name, first.Name, cc)
		}
	})
	t.Run("clash bumps the collision count", func(t *testing.T) {
		c := &fakeClient{revs: map[string]*appsv1.ControllerRevision{}}
		var cc int32
		want := mustRevision(t, "nginx:2", 1, &cc)
		squatter := mustRevision(t, "nginx:1", 1, nil)
		squatter.Name = want.Name
		c.revs[want.Name] = squatter
		got, err := Create(ctx, c, want, &cc)
		if err != nil {
			t.Fatal(err)
		}
		if cc != 1 || got.Name == squatter.Name || got.Name != "web-"+Hash(want.Data.Raw, &cc) || got.Labels[HashLabel] != Hash(want.Data.Raw, &cc) {
			t.Errorf("after a clash: count %d, name %s, label %s", cc, got.Name, got.Labels[HashLabel])
		}
	})
	t.Run("renumber", func(t *testing.T) {
		c := &fakeClient{revs: map[string]*appsv1.ControllerRevision{}}
		rev := mustRevision(t, "nginx:1", 1, nil)
		c.revs[rev.Name] = rev
		got, err := Renumber(ctx, c, rev, 4)
		if err != nil || got.Revision != 4 || rev.Revision != 1 {
			t.Errorf("renumber: %v, new %d, cached %d", err, got.Revision, rev.Revision)
		}
	})
}
