package client_test

import (
	"context"
	"strings"
	"testing"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/client"
	"platform.io/client/rest"
	"platform.io/client/watch"
)

// suite runs every verb of one typed client.
type suite[T any, PT client.ObjectPtr[T]] struct {
	c *client.Client[T, PT]
	// object returns a valid new object from name, with labels.
	object func(name string, labels map[string]string) PT
	// setStatus changes an object's status and hasStatus sees the change;
	// both are nil for a resource without status.
	setStatus func(obj PT)
	hasStatus func(obj PT) bool
	// lingers says a deleted object stays, terminating, as namespaces do
	// while no controller finalizes them.
	lingers bool
}

// run creates three objects carrying a label of the test's own, named
// after the resource and version (cronjobs of both versions share one
// store), then
// reads, writes, lists, watches and deletes them.
func (s suite[T, PT]) run(t *testing.T) {
	ctx := testContext(t)
	labels := map[string]string{"suite": strings.ReplaceAll(t.Name(), "/", ".")}
	sel := "suite=" + labels["suite"]
	r := s.c.Resource()
	base := r.Name + "-" + r.Version + "-"
	var names []string
	for _, n := range []string{base + "1", base + "2", base + "3"} {
		obj, err := s.c.Create(ctx, s.object(n, labels), meta.WriteOptions{})
		if err != nil {
			t.Fatalf("create %s: %v", n, err)
		}
		s.checkTypeMeta(t, obj)
		names = append(names, obj.GetObjectMeta().Name)
	}
	_, err := s.c.Create(ctx, s.object(base+"1", labels), meta.WriteOptions{})
	if _, ok := err.(*apierrors.StatusError); !ok || !apierrors.IsAlreadyExists(err) {
		t.Errorf("second create: %#v, want the server's AlreadyExists", err)
	}
	s.readWrite(t, ctx, names[0])
	s.patches(t, ctx, names[0])
	s.pages(t, ctx, sel, names)
	s.watchChanges(t, ctx, sel, names)
	s.bookmark(t, ctx, sel)
	s.deleteAll(t, ctx, sel, names[0])
}

func (s suite[T, PT]) checkTypeMeta(t *testing.T, obj PT) {
	t.Helper()
	r := s.c.Resource()
	if tm := obj.GetTypeMeta(); tm.Kind != r.Kind || tm.APIVersion != r.APIVersion() {
		t.Errorf("answered with kind %q apiVersion %q", tm.Kind, tm.APIVersion)
	}
	if m := obj.GetObjectMeta(); m.ResourceVersion == "" || m.UID == "" {
		t.Errorf("answered without resourceVersion or uid: %+v", m)
	}
}

// readWrite gets, updates and updates the status of the object name.
func (s suite[T, PT]) readWrite(t *testing.T, ctx context.Context, name string) {
	got, err := s.c.Get(ctx, name, meta.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s.checkTypeMeta(t, got)
	m := got.GetObjectMeta()
	m.Labels["updated"] = "yes"
	up, err := s.c.Update(ctx, got, meta.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if um := up.GetObjectMeta(); um.Labels["updated"] != "yes" || um.ResourceVersion == m.ResourceVersion {
		t.Errorf("updated %+v", um)
	}
	if _, err := s.c.Update(ctx, got, meta.WriteOptions{}); !apierrors.IsConflict(err) {
		t.Errorf("update from a stale object: %v, want a conflict", err)
	}
	if s.setStatus == nil {
		return
	}
	s.setStatus(up)
	st, err := s.c.UpdateStatus(ctx, up, meta.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if again, err := s.c.Get(ctx, name, meta.GetOptions{}); err != nil || !s.hasStatus(st) || !s.hasStatus(again) {
		t.Errorf("status not written: %v", err)
	}
}

// patches sets one annotation with each patch type.
func (s suite[T, PT]) patches(t *testing.T, ctx context.Context, name string) {
	patches := []struct {
		pt   rest.PatchType
		data string
	}{
		{rest.MergePatchType, `{"metadata":{"annotations":{"merge":"yes"}}}`},
		{rest.StrategicMergePatchType, `{"metadata":{"annotations":{"strategic":"yes"}}}`},
		{rest.JSONPatchType, `[{"op":"add","path":"/metadata/annotations/json","value":"yes"}]`},
	}
	for _, p := range patches {
		obj, err := s.c.Patch(ctx, name, p.pt, []byte(p.data), meta.WriteOptions{})
		if err != nil {
			t.Fatalf("%s: %v", p.pt, err)
		}
		s.checkTypeMeta(t, obj)
	}
	obj, err := s.c.Get(ctx, name, meta.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if a := obj.GetObjectMeta().Annotations; a["merge"] != "yes" || a["strategic"] != "yes" || a["json"] != "yes" {
		t.Errorf("annotations after the patches: %v", a)
	}
	if _, err := s.c.Patch(ctx, name, rest.JSONPatchType, []byte(`{}`), meta.WriteOptions{}); !apierrors.IsBadRequest(err) {
		t.Errorf("a malformed patch: %v, want a bad request", err)
	}
}

// pages lists the suite's objects two by two, and one by a field selector.
func (s suite[T, PT]) pages(t *testing.T, ctx context.Context, sel string, names []string) {
	first, err := s.c.List(ctx, meta.ListOptions{LabelSelector: sel, Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Items) != 2 || first.Continue == "" || first.ResourceVersion == "" {
		t.Fatalf("first page: %d items, continue %q", len(first.Items), first.Continue)
	}
	rest, err := s.c.List(ctx, meta.ListOptions{LabelSelector: sel, Limit: 2, Continue: first.Continue})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range append(first.Items, rest.Items...) {
		got = append(got, PT(&it).GetObjectMeta().Name)
	}
	if rest.Continue != "" || strings.Join(got, ",") != strings.Join(names, ",") {
		t.Errorf("pages hold %v (continue %q), want %v", got, rest.Continue, names)
	}
	one, err := s.c.List(ctx, meta.ListOptions{LabelSelector: sel, FieldSelector: "metadata.name=" + names[1]})
	if err != nil || len(one.Items) != 1 || PT(&one.Items[0]).GetObjectMeta().Name != names[1] {
		t.Errorf("list by field selector: %v", err)
	}
	if none, err := s.c.List(ctx, meta.ListOptions{LabelSelector: sel + ",updated=no"}); err != nil || len(none.Items) != 0 {
		t.Errorf("list matching nothing: %v", err)
	}
}

// watchChanges watches the suite's objects while one is patched and
// another deleted.
func (s suite[T, PT]) watchChanges(t *testing.T, ctx context.Context, sel string, names []string) {
	cur, err := s.c.List(ctx, meta.ListOptions{LabelSelector: sel})
	if err != nil {
		t.Fatal(err)
	}
	w, err := s.c.Watch(ctx, meta.ListOptions{LabelSelector: sel, ResourceVersion: cur.ResourceVersion})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	if _, err := s.c.Patch(ctx, names[0], rest.MergePatchType, []byte(`{"metadata":{"annotations":{"watched":"yes"}}}`), meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	ev := next(t, w)
	if ev.Type != watch.Modified || ev.Object.GetObjectMeta().Annotations["watched"] != "yes" {
		t.Fatalf("after a patch: %s %+v", ev.Type, ev.Status)
	}
	s.checkTypeMeta(t, ev.Object)
	zero := int64(0)
	if err := s.c.Delete(ctx, names[2], &meta.DeleteOptions{GracePeriodSeconds: &zero}); err != nil {
		t.Fatal(err)
	}
	for {
		ev = next(t, w)
		m := ev.Object.GetObjectMeta()
		if ev.Type == watch.Error || m.Name != names[2] {
			t.Fatalf("while deleting %s: %s of %q %+v", names[2], ev.Type, m.Name, ev.Status)
		}
		if ev.Type == watch.Deleted || s.lingers && m.DeletionTimestamp != nil {
			return
		}
	}
}

// bookmark watches until the server's timeout, which ends the stream with
// a bookmark.
func (s suite[T, PT]) bookmark(t *testing.T, ctx context.Context, sel string) {
	cur, err := s.c.List(ctx, meta.ListOptions{LabelSelector: sel})
	if err != nil {
		t.Fatal(err)
	}
	w, err := s.c.Watch(ctx, meta.ListOptions{LabelSelector: sel, ResourceVersion: cur.ResourceVersion, AllowWatchBookmarks: true, TimeoutSeconds: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	ev := next(t, w)
	if ev.Type != watch.Bookmark || ev.Object.GetObjectMeta().ResourceVersion == "" || ev.Object.GetObjectMeta().Name != "" {
		t.Fatalf("at the timeout: %s %+v", ev.Type, ev.Object)
	}
	if _, open := <-w.ResultChan(); open {
		t.Errorf("the watch went on after its timeout")
	}
}

// deleteAll deletes the suite's objects as a collection.
func (s suite[T, PT]) deleteAll(t *testing.T, ctx context.Context, sel, name string) {
	zero := int64(0)
	if err := s.c.DeleteCollection(ctx, &meta.DeleteOptions{GracePeriodSeconds: &zero}, meta.ListOptions{LabelSelector: sel}); err != nil {
		t.Fatal(err)
	}
	left, err := s.c.List(ctx, meta.ListOptions{LabelSelector: sel})
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range left.Items {
		if m := PT(&it).GetObjectMeta(); !s.lingers || m.DeletionTimestamp == nil {
			t.Errorf("%s is left after the delete collection", m.Name)
		}
	}
	if len(left.Items) > 0 || s.lingers {
		return
	}
	_, err = s.c.Get(ctx, name, meta.GetOptions{})
	if !apierrors.IsNotFound(err) {
		t.Errorf("get after delete: %v, want not found", err)
	}
}
