package rest

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
)

// fenceMetrics counts the not-leader refusals reported to it.
type fenceMetrics struct {
	waitMetrics
	mu      sync.Mutex
	refused []string
}

func (m *fenceMetrics) IncNotLeader(verb string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.refused = append(m.refused, verb)
}

func TestFenceHeaderOnWritesOnly(t *testing.T) {
	var mu sync.Mutex
	seen := map[string]string{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen[r.Method] = r.Header.Get(LeaderLockHeader)
		mu.Unlock()
		if r.Header.Get(LeaderLockHeader) == "stale" {
			st := apierrors.NewNotLeader(meta.GroupResource{Resource: "configmaps"}, "x", "leases.coordination.platform.io ns/n", "held by b").Status()
			writeStatus(w, st)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{}`))
	}))
	defer srv.Close()
	m := &fenceMetrics{}
	base := testClient(t, srv, func(c *Config) { c.Metrics = m })
	fence := &Fence{}
	c := base.WithFence(fence)
	ctx := context.Background()
	send := func(c *Client) {
		t.Helper()
		for _, r := range []*Request{c.Get(), c.Post(), c.Put(), c.Patch(MergePatchType), c.Delete()} {
			if r.verb != http.MethodGet {
				r.Body(map[string]string{})
			}
			r.AbsPath("/api/v1/namespaces/ns/configmaps/x").Do(ctx)
		}
	}
	send(c)
	for verb, v := range seen {
		if v != "" {
			t.Errorf("%s sent %q before the fence was set", verb, v)
		}
	}
	fence.Set("held")
	send(c)
	for _, verb := range []string{"POST", "PUT", "PATCH", "DELETE"} {
		if seen[verb] != "held" {
			t.Errorf("%s sent %q, want the fence", verb, seen[verb])
		}
	}
	if seen["GET"] != "" {
		t.Errorf("GET sent %q, want no header", seen["GET"])
	}
	send(base)
	for verb, v := range seen {
		if v != "" {
			t.Errorf("the unfenced client's %s sent %q", verb, v)
		}
	}
	fence.Set("stale")
	send(c)
	if len(m.refused) != 4 {
		t.Errorf("refusals counted: %v, want the 4 writes", m.refused)
	}
}

func writeStatus(w http.ResponseWriter, st meta.Status) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(int(st.Code))
	json.NewEncoder(w).Encode(st)
}
