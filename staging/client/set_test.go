package client

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"platform.io/client/api/meta"
	"platform.io/client/informer"
	"platform.io/client/rest"
)

// TestInformThrough checks that a set made with InformThrough sends its own
// calls with its own credentials while the informer sources of its clients
// list with the other set's: a controller loop on its service account
// shares the manager's informers, which run as the manager.
func TestInformThrough(t *testing.T) {
	var mu sync.Mutex
	var last string // the Authorization header of the last request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		last = r.Header.Get("Authorization")
		mu.Unlock()
		w.Header().Set("Content-Type", rest.ContentTypeJSON)
		_, _ = w.Write([]byte(`{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"5"},"items":[]}`))
	}))
	t.Cleanup(srv.Close)
	newSet := func(token string) *Set {
		rc, err := rest.NewClient(&rest.Config{Host: srv.URL, QPS: -1, MaxRetries: -1, BearerToken: token})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(rc.CloseIdleConnections)
		return NewSet(rc)
	}
	loop := newSet("loop")
	set := loop.InformThrough(newSet("manager"))
	ctx := context.Background()
	lastAuth := func() string {
		mu.Lock()
		defer mu.Unlock()
		return last
	}

	tests := []struct {
		name string
		call func() error
		want string
	}{
		{"own list", func() error { _, err := set.Pods.Namespace("ns").List(ctx, meta.ListOptions{}); return err }, "Bearer loop"},
		{"informer source", func() error { return list(ctx, set.Pods.ListWatch()) }, "Bearer manager"},
		{"scoped informer source", func() error { return list(ctx, set.Pods.Namespace("ns").ListWatch()) }, "Bearer manager"},
		{"other resource's informer source", func() error { return list(ctx, set.Deployments.ListWatch()) }, "Bearer manager"},
		{"the original set is unchanged", func() error { return list(ctx, loop.Pods.ListWatch()) }, "Bearer loop"},
	}
	for _, tt := range tests {
		if err := tt.call(); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := lastAuth(); got != tt.want {
			t.Errorf("%s: sent Authorization %q, want %q", tt.name, got, tt.want)
		}
	}
}

func list[PT informer.Object](ctx context.Context, lw informer.ListerWatcher[PT]) error {
	_, _, err := lw.List(ctx, meta.ListOptions{})
	return err
}
