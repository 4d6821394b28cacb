package client_test

import (
	"testing"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/client"
	"platform.io/client/rest"
	"platform.io/client/watch"

	"platform.io/platform/test/integration/framework"
)

// TestDynamicClient runs create, get, update, patch, list, watch and delete
// of config maps and deployments as Unstructured objects, with a rest
// client that would send protobuf: the dynamic client speaks JSON anyway.
func TestDynamicClient(t *testing.T) {
	s := framework.Start(t)
	dyn := client.NewDynamic(restClient(t, s, ""))
	tests := []struct {
		gvr    meta.GroupVersionResource
		object map[string]any
	}{
		{meta.GroupVersionResource{Version: "v1", Resource: "configmaps"}, map[string]any{
			"apiVersion": "v1", "kind": "ConfigMap", "data": map[string]any{"k": "v"},
		}},
		{meta.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}, map[string]any{
			"apiVersion": "apps/v1", "kind": "Deployment",
			"spec": map[string]any{
				"replicas": 2,
				"selector": map[string]any{"matchLabels": map[string]any{"app": "x"}},
				"template": map[string]any{
					"metadata": map[string]any{"labels": map[string]any{"app": "x"}},
					"spec":     map[string]any{"containers": []any{map[string]any{"name": "c", "image": "busybox"}}},
				},
			},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.gvr.Resource, func(t *testing.T) {
			testDynamic(t, dyn.Resource(tt.gvr).Namespace("default"), &client.Unstructured{Object: tt.object})
		})
	}
}

func testDynamic(t *testing.T, r *client.DynamicResource, obj *client.Unstructured) {
	ctx := testContext(t)
	obj.SetName("dyn")
	obj.SetLabels(map[string]string{"dynamic": "yes"})
	created, err := r.Create(ctx, obj, meta.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if created.GetResourceVersion() == "" || created.GetUID() == "" || created.GetKind() != obj.GetKind() || created.GetNamespace() != "default" {
		t.Fatalf("created %v", created.Object)
	}
	got, err := r.Get(ctx, "dyn", meta.GetOptions{})
	if err != nil || got.GetUID() != created.GetUID() {
		t.Fatalf("get: %v", err)
	}
	got.SetAnnotations(map[string]string{"updated": "yes"})
	updated, err := r.Update(ctx, got, meta.WriteOptions{})
	if err != nil || updated.GetAnnotations()["updated"] != "yes" || updated.GetResourceVersion() == got.GetResourceVersion() {
		t.Fatalf("update: %v", err)
	}
	if _, err := r.Update(ctx, got, meta.WriteOptions{}); !apierrors.IsConflict(err) {
		t.Errorf("stale update: %v, want a conflict", err)
	}
	w, err := r.Watch(ctx, meta.ListOptions{LabelSelector: "dynamic=yes", ResourceVersion: updated.GetResourceVersion()})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	patched, err := r.Patch(ctx, "dyn", rest.MergePatchType, []byte(`{"metadata":{"labels":{"patched":"yes"}}}`), meta.WriteOptions{})
	if err != nil || patched.GetLabels()["patched"] != "yes" {
		t.Fatalf("patch: %v", err)
	}
	if ev := next(t, w); ev.Type != watch.Modified || ev.Object.GetLabels()["patched"] != "yes" {
		t.Fatalf("watch after the patch: %s %v", ev.Type, ev.Status)
	}
	l, err := r.List(ctx, meta.ListOptions{LabelSelector: "dynamic=yes,patched=yes"})
	if err != nil || len(l.Items) != 1 || l.Items[0].GetName() != "dyn" || l.ResourceVersion == "" {
		t.Fatalf("list: %+v, %v", l, err)
	}
	if err := r.Delete(ctx, "dyn", nil); err != nil {
		t.Fatal(err)
	}
	if ev := next(t, w); ev.Type != watch.Deleted || ev.Object.GetName() != "dyn" {
		t.Fatalf("watch after the delete: %s %v", ev.Type, ev.Status)
	}
	if _, err := r.Get(ctx, "dyn", meta.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("get after delete: %v", err)
	}
	if err := r.DeleteCollection(ctx, nil, meta.ListOptions{LabelSelector: "dynamic=yes"}); err != nil {
		t.Errorf("delete collection: %v", err)
	}
}
