package registry_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/admission"
	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/registry/core/configmap"
	"platform.io/platform/pkg/apiserver/registry/core/pod"
	"platform.io/platform/pkg/apiserver/storage/etcd3"
	"platform.io/platform/pkg/apiserver/storage/etcdtest"
	"platform.io/platform/pkg/component/authn"
)

// recorder admits every write, records what each step saw, labels the
// objects it admits and refuses writes of objects labelled refuse=<step>.
type recorder struct {
	seen []string
	last map[string]admission.Attributes
}

func (r *recorder) Admit(_ context.Context, a *admission.Attributes) error {
	r.record("admit", a)
	if a.Object != nil {
		m := a.Object.GetObjectMeta()
		if m.Labels == nil {
			m.Labels = map[string]string{}
		}
		m.Labels["admitted"] = "yes"
		if p, ok := a.Object.(*corev1.Pod); ok {
			p.Spec.NodeName = strings.ToLower("by-" + string(a.Operation) + "-" + a.Subresource + "x")
		}
	}
	return refuse("admit", a)
}

func (r *recorder) Validate(_ context.Context, a *admission.Attributes) error {
	r.record("validate", a)
	if a.Object != nil && a.Object.GetObjectMeta().Labels["admitted"] != "yes" {
		return errors.New("validating step saw an object the mutating step had not changed")
	}
	return refuse("validate", a)
}

func (r *recorder) record(step string, a *admission.Attributes) {
	r.seen = append(r.seen, step+" "+string(a.Operation)+" "+a.Resource.Resource+"/"+a.Subresource)
	c := *a
	r.last[step] = c
}

func refuse(step string, a *admission.Attributes) error {
	label := "refuse"
	o := a.Object
	if a.Operation == admission.Delete {
		label, o = "refuse-delete", a.OldObject
	}
	if o != nil && o.GetObjectMeta().Labels[label] == step {
		return apierrors.NewForbidden(a.GroupResource(), a.Name, errors.New("refused by "+step))
	}
	return nil
}

func newStores(t *testing.T) (*recorder, *registry.Store, *registry.Store) {
	c, prefix := etcdtest.Client(t)
	st := etcd3.New(zap.NewNop(), c, prometheus.NewRegistry())
	r := &recorder{last: map[string]admission.Attributes{}}
	cfg := registry.Config{Storage: st, Prefix: prefix, Admission: r}
	return r, registry.NewStore(configmap.Resource(), cfg), registry.NewStore(pod.Resource(), cfg)
}

func cm(name string, labels map[string]string) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "ns", Labels: labels}, Data: map[string]string{"k": "v"}}
}

// TestAdmissionOnWrites: each write runs the mutating step, the store's
// validation, then the validating step, with the attributes of the write;
// a refusal at either step stores nothing.
func TestAdmissionOnWrites(t *testing.T) {
	rec, cms, _ := newStores(t)
	alice := &authn.User{Name: "alice", Groups: []string{"dev"}}
	ctx := authn.WithUser(context.Background(), alice)

	out, err := cms.Create(ctx, cm("a", nil), false)
	if err != nil {
		t.Fatal(err)
	}
	if out.GetObjectMeta().Labels["admitted"] != "yes" {
		t.Errorf("create did not store the mutation: %v", out.GetObjectMeta().Labels)
	}
	a := rec.last["validate"]
	if a.Operation != admission.Create || a.User != alice || a.Name != "a" || a.Namespace != "ns" || a.OldObject != nil ||
		a.Kind != (meta.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}) {
		t.Errorf("create attributes: %+v", a)
	}
	if o, ok := a.Options.(*meta.CreateOptions); !ok || o.Kind != "CreateOptions" || len(o.DryRun) != 0 {
		t.Errorf("create options: %#v", a.Options)
	}

	if _, err := cms.Create(ctx, cm("dry", nil), true); err != nil {
		t.Fatal(err)
	}
	if a := rec.last["admit"]; !a.DryRun || !cmp.Equal(a.Options.(*meta.CreateOptions).DryRun, []string{"All"}) {
		t.Errorf("dry-run create attributes: %+v", a)
	}

	replace := func(_ context.Context, cur meta.Object) (meta.Object, error) {
		c := cur.(*corev1.ConfigMap)
		c.Data["k"] = "v2"
		return c, nil
	}
	if _, _, err := cms.Update(ctx, "ns", "a", replace, registry.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	a = rec.last["validate"]
	if a.Operation != admission.Update || a.OldObject == nil || a.OldObject.(*corev1.ConfigMap).Data["k"] != "v" {
		t.Errorf("update attributes: %+v", a)
	}
	if _, ok := a.Options.(*meta.UpdateOptions); !ok {
		t.Errorf("update options: %#v", a.Options)
	}
	if _, _, err := cms.Update(ctx, "ns", "a", replace, registry.UpdateOptions{Patch: true}); err != nil {
		t.Fatal(err)
	}
	if _, ok := rec.last["validate"].Options.(*meta.PatchOptions); !ok {
		t.Errorf("patch options: %#v", rec.last["validate"].Options)
	}

	if _, err := cms.Delete(ctx, "ns", "a", &meta.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	a = rec.last["validate"]
	if a.Operation != admission.Delete || a.Object != nil || a.OldObject == nil || a.Name != "a" {
		t.Errorf("delete attributes: %+v", a)
	}
	if _, ok := a.Options.(*meta.DeleteOptions); !ok {
		t.Errorf("delete options: %#v", a.Options)
	}
	want := []string{
		"admit CREATE configmaps/", "validate CREATE configmaps/",
		"admit CREATE configmaps/", "validate CREATE configmaps/",
		"admit UPDATE configmaps/", "validate UPDATE configmaps/",
		"admit UPDATE configmaps/", "validate UPDATE configmaps/",
		"validate DELETE configmaps/",
	}
	if diff := cmp.Diff(want, rec.seen); diff != "" {
		t.Errorf("steps (-want +got):\n%s", diff)
	}
}

// TestAdmissionRefusalStoresNothing: a refusal by either step is the
// request's answer and leaves storage as it was.
func TestAdmissionRefusalStoresNothing(t *testing.T) {
	_, cms, _ := newStores(t)
	ctx := context.Background()
	for _, step := range []string{"admit", "validate"} {
		if _, err := cms.Create(ctx, cm("r-"+step, map[string]string{"refuse": step}), false); !apierrors.IsForbidden(err) {
			t.Fatalf("create refused by %s: %v", step, err)
		}
		if _, err := cms.Get(ctx, "ns", "r-"+step); !apierrors.IsNotFound(err) {
			t.Errorf("create refused by %s was stored: %v", step, err)
		}
	}
	if _, err := cms.Create(ctx, cm("keep", nil), false); err != nil {
		t.Fatal(err)
	}
	label := func(_ context.Context, cur meta.Object) (meta.Object, error) {
		cur.GetObjectMeta().Labels["refuse"] = "validate"
		return cur, nil
	}
	if _, _, err := cms.Update(ctx, "ns", "keep", label, registry.UpdateOptions{Patch: true}); !apierrors.IsForbidden(err) {
		t.Fatalf("update refused: %v", err)
	}
	got, err := cms.Get(ctx, "ns", "keep")
	if err != nil || got.GetObjectMeta().Labels["refuse"] != "" {
		t.Errorf("refused update was stored: %v %v", got, err)
	}
	// A delete refused by validation keeps the object.
	if _, err := cms.Create(ctx, cm("undeletable", map[string]string{"refuse-delete": "validate"}), false); err != nil {
		t.Fatal(err)
	}
	if _, err := cms.Delete(ctx, "ns", "undeletable", &meta.DeleteOptions{}); !apierrors.IsForbidden(err) {
		t.Fatalf("delete refused: %v", err)
	}
	if _, err := cms.Get(ctx, "ns", "undeletable"); err != nil {
		t.Errorf("refused delete removed the object: %v", err)
	}
}

// TestAdmissionOnStatusAndActions: a status write is admitted as the
// status subresource and keeps only the status a mutation leaves; the body
// of an action is admitted as a create of the subresource, and the writes
// the action makes are not admitted again.
func TestAdmissionOnStatusAndActions(t *testing.T) {
	rec, _, pods := newStores(t)
	ctx := context.Background()
	p := &corev1.Pod{ObjectMeta: meta.ObjectMeta{Name: "p", Namespace: "ns"}, Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "i"}}}}
	if _, err := pods.Create(ctx, p, false); err != nil {
		t.Fatal(err)
	}
	// The recorder sets spec.nodeName on every admitted pod; on create
	// that stays, on a status write it must not.
	if out, err := pods.Get(ctx, "ns", "p"); err != nil || out.(*corev1.Pod).Spec.NodeName != "by-create-x" {
		t.Fatalf("created pod: %v %v", out, err)
	}
	setPhase := func(_ context.Context, cur meta.Object) (meta.Object, error) {
		c := cur.(*corev1.Pod)
		c.Spec.NodeName = "n-from-status-write"
		c.Status.Phase = corev1.PodRunning
		return c, nil
	}
	before, err := pods.Get(ctx, "ns", "p")
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := pods.Update(ctx, "ns", "p", setPhase, registry.UpdateOptions{Part: registry.StatusPart, Patch: true})
	if err != nil {
		t.Fatal(err)
	}
	if a := rec.last["validate"]; a.Subresource != "status" || a.Operation != admission.Update {
		t.Errorf("status attributes: %+v", a)
	}
	got := out.(*corev1.Pod)
	if got.Status.Phase != corev1.PodRunning || got.Spec.NodeName != before.(*corev1.Pod).Spec.NodeName {
		t.Errorf("status write: phase %q nodeName %q, want Running and the old nodeName %q", got.Status.Phase, got.Spec.NodeName, before.(*corev1.Pod).Spec.NodeName)
	}

	rec.seen = nil
	b := &corev1.Binding{ObjectMeta: meta.ObjectMeta{Name: "p", Namespace: "ns"}, Target: corev1.ObjectReference{Kind: "Node", Name: "n1"}}
	if err := pods.AdmitAction(ctx, "binding", "ns", "p", b, false); err != nil {
		t.Fatal(err)
	}
	if a := rec.last["validate"]; a.Subresource != "binding" || a.Operation != admission.Create || a.Kind.Kind != "Binding" || a.Object != meta.Object(b) {
		t.Errorf("binding attributes: %+v", a)
	}
	actx := registry.ActionContext(ctx)
	if _, _, err := pods.Update(actx, "ns", "p", func(_ context.Context, cur meta.Object) (meta.Object, error) { return cur, nil }, registry.UpdateOptions{Patch: true}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"admit CREATE pods/binding", "validate CREATE pods/binding"}, rec.seen); diff != "" {
		t.Errorf("steps (-want +got):\n%s", diff)
	}
}
