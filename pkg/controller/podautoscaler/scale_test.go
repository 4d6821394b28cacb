package podautoscaler

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	autoscalingv1 "platform.io/client/api/autoscaling/v1"
	"platform.io/client/api/meta"
	"platform.io/client/discovery"
	"platform.io/client/rest"
)

// TestRESTScales: a built-in kind needs no discovery; a custom kind is
// found in the server's discovery, read once for lookups within
// discoveryMaxAge, and its scale is read and written at the resource's
// path.
func TestRESTScales(t *testing.T) {
	var mu sync.Mutex
	hits := map[string]int{}
	var written autoscalingv1.Scale
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits[r.Method+" "+r.URL.Path]++
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		switch r.Method + " " + r.URL.Path {
		case "GET /api":
			_ = json.NewEncoder(w).Encode(meta.APIVersions{Versions: []string{"v1"}})
		case "GET /api/v1":
			_ = json.NewEncoder(w).Encode(meta.APIResourceList{GroupVersion: "v1"})
		case "GET /apis":
			_ = json.NewEncoder(w).Encode(meta.APIGroupList{Groups: []meta.APIGroup{{Name: "example.io",
				Versions:         []meta.GroupVersionForDiscovery{{GroupVersion: "example.io/v1", Version: "v1"}},
				PreferredVersion: meta.GroupVersionForDiscovery{GroupVersion: "example.io/v1", Version: "v1"}}}})
		case "GET /apis/example.io/v1":
			_ = json.NewEncoder(w).Encode(meta.APIResourceList{GroupVersion: "example.io/v1", APIResources: []meta.APIResource{
				{Name: "widgets/scale", Kind: "Scale", Namespaced: true},
				{Name: "widgets", Kind: "Widget", Namespaced: true},
			}})
		case "GET /apis/example.io/v1/namespaces/ns/widgets/w1/scale", "GET /apis/apps/v1/namespaces/ns/deployments/web/scale":
			_ = json.NewEncoder(w).Encode(autoscalingv1.Scale{ObjectMeta: meta.ObjectMeta{Name: "w1"}, Spec: autoscalingv1.ScaleSpec{Replicas: 3}})
		case "PUT /apis/example.io/v1/namespaces/ns/widgets/w1/scale":
			b, _ := io.ReadAll(r.Body)
			_ = json.Unmarshal(b, &written)
			_, _ = w.Write(b)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	rc, err := rest.NewClient(&rest.Config{Host: srv.URL, QPS: -1, ContentType: rest.ContentTypeJSON})
	if err != nil {
		t.Fatal(err)
	}
	s := &RESTScales{REST: rc, Discovery: discovery.NewSet(rc, nil)}
	ctx := t.Context()
	if _, gr, err := s.Get(ctx, "ns", "apps/v1", "Deployment", "web"); err != nil || gr.Resource != "deployments" {
		t.Fatalf("deployment scale: %v %v", gr, err)
	}
	for range 2 {
		sc, gr, err := s.Get(ctx, "ns", "example.io/v1", "Widget", "w1")
		if err != nil || sc.Spec.Replicas != 3 || gr != (meta.GroupResource{Group: "example.io", Resource: "widgets"}) {
			t.Fatalf("widget scale: %+v %v %v", sc, gr, err)
		}
	}
	sc := &autoscalingv1.Scale{ObjectMeta: meta.ObjectMeta{Name: "w1"}, Spec: autoscalingv1.ScaleSpec{Replicas: 5}}
	if err := s.Update(ctx, "ns", "example.io/v1", "Widget", sc); err != nil || written.Spec.Replicas != 5 {
		t.Fatalf("update: %v, server got %+v", err, written)
	}
	if _, _, err := s.Get(ctx, "ns", "example.io/v1", "Gadget", "g"); err == nil {
		t.Error("an unknown kind resolved")
	}
	mu.Lock()
	defer mu.Unlock()
	if hits["GET /apis/apps/v1"] != 0 {
		t.Error("a built-in kind was looked up in discovery")
	}
	if hits["GET /apis"] != 1 || hits["GET /apis/example.io/v1"] != 1 {
		t.Errorf("discovery read %d times (its group version %d), want once within %v", hits["GET /apis"], hits["GET /apis/example.io/v1"], discoveryMaxAge)
	}
}
