package client

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"platform.io/client/api/meta"
	"platform.io/client/rest"
	"platform.io/client/watch"
)

func configMapsGVR() meta.GroupVersionResource {
	return meta.GroupVersionResource{Version: "v1", Resource: "configmaps"}
}

func newUnstructured(name string) *Unstructured {
	u := &Unstructured{}
	u.SetAPIVersion("v1")
	u.SetKind("ConfigMap")
	u.SetName(name)
	u.SetNestedField(map[string]any{"k": "v"}, "data")
	return u
}

// TestDynamicSpeaksJSON: whatever the rest.Client's content type, the
// dynamic client sends JSON and asks for JSON only.
func TestDynamicSpeaksJSON(t *testing.T) {
	reply := replyJSON(map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c", "generation": 3, "resourceVersion": "8"}})
	tests := []struct {
		name        string
		call        func(ctx context.Context, r *DynamicResource) error
		method      string
		path        string
		contentType string
	}{
		{"create", func(ctx context.Context, r *DynamicResource) error {
			_, err := r.Namespace("ns").Create(ctx, newUnstructured("c"), meta.WriteOptions{})
			return err
		}, "POST", "/api/v1/namespaces/ns/configmaps", rest.ContentTypeJSON},
		{"update", func(ctx context.Context, r *DynamicResource) error {
			_, err := r.Namespace("ns").Update(ctx, newUnstructured("c"), meta.WriteOptions{})
			return err
		}, "PUT", "/api/v1/namespaces/ns/configmaps/c", rest.ContentTypeJSON},
		{"patch", func(ctx context.Context, r *DynamicResource) error {
			_, err := r.Namespace("ns").Patch(ctx, "c", rest.JSONPatchType, []byte(`[]`), meta.WriteOptions{})
			return err
		}, "PATCH", "/api/v1/namespaces/ns/configmaps/c", string(rest.JSONPatchType)},
		{"get", func(ctx context.Context, r *DynamicResource) error {
			_, err := r.Namespace("ns").Get(ctx, "c", meta.GetOptions{})
			return err
		}, "GET", "/api/v1/namespaces/ns/configmaps/c", ""},
		{"delete", func(ctx context.Context, r *DynamicResource) error {
			return r.Namespace("ns").Delete(ctx, "c", &meta.DeleteOptions{})
		}, "DELETE", "/api/v1/namespaces/ns/configmaps/c", rest.ContentTypeJSON},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeServer(t, reply)
			if err := tt.call(t.Context(), NewDynamic(f.restClient(t, "")).Resource(configMapsGVR())); err != nil {
				t.Fatal(err)
			}
			got := f.requests()[0]
			if got.Method != tt.method || got.Path != tt.path || got.ContentType != tt.contentType || got.Accept != rest.ContentTypeJSON {
				t.Errorf("sent %s %s (%s, accept %s)", got.Method, got.Path, got.ContentType, got.Accept)
			}
			if len(got.Body) > 0 && !json.Valid(got.Body) {
				t.Errorf("body %q is not JSON", got.Body)
			}
		})
	}
}

func TestDynamicDecoding(t *testing.T) {
	f := newFakeServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", rest.ContentTypeJSON)
		if r.URL.Query().Get("watch") == "true" {
			_, _ = w.Write([]byte(`{"type":"ADDED","object":{"kind":"ConfigMap","metadata":{"name":"a","resourceVersion":"2"}}}` + "\n"))
			_, _ = w.Write([]byte(`{"type":"BOOKMARK","object":{"kind":"ConfigMap","metadata":{"resourceVersion":"3"}}}` + "\n"))
			_, _ = w.Write([]byte(`{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Expired","code":410}}` + "\n"))
			return
		}
		_, _ = w.Write([]byte(`{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"5","continue":"n"},` +
			`"items":[{"metadata":{"name":"a","generation":2,"labels":{"x":"y"}},"data":{"k":"v"},"ratio":0.5}]}`))
	})
	r := NewDynamic(f.restClient(t, "")).Resource(configMapsGVR())
	l, err := r.List(t.Context(), meta.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if l.Kind != "ConfigMapList" || l.ResourceVersion != "5" || l.Continue != "n" || len(l.Items) != 1 {
		t.Fatalf("list %+v", l)
	}
	it := &l.Items[0]
	want := map[string]any{
		"metadata": map[string]any{"name": "a", "generation": int64(2), "labels": map[string]any{"x": "y"}},
		"data":     map[string]any{"k": "v"},
		"ratio":    0.5,
	}
	if diff := cmp.Diff(want, it.Object); diff != "" {
		t.Errorf("item (-want +got):\n%s", diff)
	}
	w, err := r.Watch(t.Context(), meta.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	evs := collect(t, w)
	if len(evs) != 3 || evs[0].Object.GetName() != "a" || evs[1].Type != watch.Bookmark || evs[1].Object.GetResourceVersion() != "3" ||
		evs[2].Type != watch.Error || evs[2].Status.Reason != meta.StatusReasonExpired {
		t.Errorf("events %+v", evs)
	}
}

func TestDynamicChecksKnownResources(t *testing.T) {
	f := newFakeServer(t, replyJSON(map[string]any{}))
	d := NewDynamic(f.restClient(t, ""))
	_, err := d.Resource(configMapsGVR()).Get(t.Context(), "c", meta.GetOptions{})
	if err == nil || !strings.Contains(err.Error(), "namespaced") {
		t.Errorf("get of a namespaced resource without a namespace: %v", err)
	}
	_, err = d.Resource(meta.GroupVersionResource{Version: "v1", Resource: "nodes"}).Namespace("ns").Get(t.Context(), "n", meta.GetOptions{})
	if err == nil || !strings.Contains(err.Error(), "not namespaced") {
		t.Errorf("get of a cluster-scoped resource in a namespace: %v", err)
	}
	if n := len(f.requests()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
	widgets := meta.GroupVersionResource{Group: "example.io", Version: "v1", Resource: "widgets"}
	for _, ns := range []string{"", "ns"} {
		if _, err := d.Resource(widgets).Namespace(ns).Get(t.Context(), "w", meta.GetOptions{}); err != nil {
			t.Errorf("unknown resource in namespace %q: %v", ns, err)
		}
	}
	reqs := f.requests()
	if len(reqs) != 2 || reqs[0].Path != "/apis/example.io/v1/widgets/w" || reqs[1].Path != "/apis/example.io/v1/namespaces/ns/widgets/w" {
		t.Errorf("requests %+v", reqs)
	}
}
