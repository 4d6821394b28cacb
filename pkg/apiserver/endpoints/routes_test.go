package endpoints

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"go.uber.org/zap"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
)

func virtualStore(group, version, name, kind string) *registry.Store {
	r := &registry.Resource{Group: group, Version: version, Name: name, Kind: kind,
		New: func() meta.Object { return &corev1.ConfigMap{} }, Strategy: registry.Typed[corev1.ConfigMap]{},
		Virtual: func(_ context.Context, obj meta.Object) (meta.Object, error) { return obj, nil }}
	return registry.NewStore(r, registry.Config{})
}

// TestSetAddsAndRemoves: stores registered at run time are routed and
// discovered, removing them takes them out of both, and a resource
// registered twice is refused without changing what is served.
func TestSetAddsAndRemoves(t *testing.T) {
	h := NewHandler(zap.NewNop(), Config{}, []*registry.Store{virtualStore("a.io", "v1", "apples", "Apple")})
	get := func(path string) (int, string) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		return rec.Code, rec.Body.String()
	}
	if code, _ := get("/apis/b.io/v1"); code != http.StatusNotFound {
		t.Fatalf("b.io served before it is set: %d", code)
	}
	if err := h.Set("pears.b.io", []*registry.Store{virtualStore("b.io", "v1", "pears", "Pear")}); err != nil {
		t.Fatal(err)
	}
	if code, body := get("/apis/b.io/v1"); code != http.StatusOK || !strings.Contains(body, `"name":"pears"`) {
		t.Errorf("after Set: %d %s", code, body)
	}
	if _, body := get("/apis"); !strings.Contains(body, `"name":"b.io"`) || !strings.Contains(body, `"name":"a.io"`) {
		t.Errorf("/apis after Set: %s", body)
	}
	if code, _ := get("/apis/b.io/v1/pears"); code != http.StatusMethodNotAllowed {
		t.Errorf("a GET of the virtual pears: %d, want 405 (routed)", code)
	}
	if err := h.Set("other", []*registry.Store{virtualStore("b.io", "v1", "pears", "Pear")}); err == nil {
		t.Errorf("a second owner of pears was accepted")
	}
	if !h.ServesGroup("b.io") {
		t.Errorf("a refused Set changed what is served")
	}
	if err := h.Set("pears.b.io", nil); err != nil {
		t.Fatal(err)
	}
	if code, _ := get("/apis/b.io/v1/pears"); code != http.StatusNotFound {
		t.Errorf("pears after removal: %d", code)
	}
	if h.ServesGroup("b.io") || !h.ServesGroup("a.io") {
		t.Errorf("after removal: b.io %v, a.io %v", h.ServesGroup("b.io"), h.ServesGroup("a.io"))
	}
}
