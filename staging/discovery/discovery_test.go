package discovery

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"platform.io/client/api/meta"
	"platform.io/client/client"
	"platform.io/client/rest"
	"platform.io/client/workqueue"
)

// server serves discovery documents from docs (path to document); a path
// in codes answers that status instead. It counts the /apis reads.
type server struct {
	mu    sync.Mutex // guards docs, codes and reads
	docs  map[string]any
	codes map[string]int
	reads int
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	doc, ok := s.docs[r.URL.Path]
	code := s.codes[r.URL.Path]
	if r.URL.Path == "/apis" {
		s.reads++
	}
	s.mu.Unlock()
	if !ok && code == 0 {
		code = http.StatusNotFound
	}
	w.Header().Set("Content-Type", "application/json")
	if code != 0 {
		w.WriteHeader(code)
		json.NewEncoder(w).Encode(meta.Status{TypeMeta: meta.TypeMeta{Kind: "Status", APIVersion: "v1"}, Status: "Failure", Code: int32(code)})
		return
	}
	json.NewEncoder(w).Encode(doc)
}

func (s *server) set(path string, doc any, code int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if doc != nil {
		s.docs[path] = doc
	}
	s.codes[path] = code
}

func (s *server) apisReads() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reads
}

func group(name, preferred string, versions ...string) meta.APIGroup {
	g := meta.APIGroup{Name: name, PreferredVersion: meta.GroupVersionForDiscovery{GroupVersion: name + "/" + preferred, Version: preferred}}
	for _, v := range versions {
		g.Versions = append(g.Versions, meta.GroupVersionForDiscovery{GroupVersion: name + "/" + v, Version: v})
	}
	return g
}

var allVerbs = []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"}

func list(gv string, rs ...meta.APIResource) meta.APIResourceList {
	return meta.APIResourceList{GroupVersion: gv, APIResources: rs}
}

// newServer serves the core group (pods with status, bindings with create
// only), stable.example.com v1 (preferred) and v1beta1 (crontabs in both,
// oldthings only in v1beta1), and metrics.example.com v1, which is
// unavailable.
func newServer(t *testing.T) (*server, *rest.Client) {
	t.Helper()
	s := &server{codes: map[string]int{}, docs: map[string]any{
		"/api":  meta.APIVersions{Versions: []string{"v1"}},
		"/apis": meta.APIGroupList{Groups: []meta.APIGroup{group("stable.example.com", "v1", "v1", "v1beta1"), group("metrics.example.com", "v1", "v1")}},
		"/api/v1": list("v1",
			meta.APIResource{Name: "pods", Namespaced: true, Kind: "Pod", Verbs: allVerbs},
			meta.APIResource{Name: "pods/status", Namespaced: true, Kind: "Pod", Verbs: []string{"get", "patch", "update"}},
			meta.APIResource{Name: "bindings", Namespaced: true, Kind: "Binding", Verbs: []string{"create"}},
			meta.APIResource{Name: "namespaces", Kind: "Namespace", Verbs: allVerbs}),
		"/apis/stable.example.com/v1": list("stable.example.com/v1",
			meta.APIResource{Name: "crontabs", Namespaced: true, Kind: "CronTab", Verbs: allVerbs},
			meta.APIResource{Name: "crontabs/scale", Namespaced: true, Kind: "Scale", Group: "autoscaling", Version: "v1", Verbs: []string{"get"}}),
		"/apis/stable.example.com/v1beta1": list("stable.example.com/v1beta1",
			meta.APIResource{Name: "crontabs", Namespaced: true, Kind: "CronTab", Verbs: allVerbs},
			meta.APIResource{Name: "oldthings", Kind: "OldThing", Verbs: []string{"get", "list"}}),
	}}
	s.codes["/apis/metrics.example.com/v1"] = http.StatusServiceUnavailable
	hs := httptest.NewServer(s)
	t.Cleanup(hs.Close)
	rc, err := rest.NewClient(&rest.Config{Host: hs.URL, QPS: -1, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	return s, rc
}

func res(group, version, name, kind string, namespaced, preferred bool, verbs []string, subs ...string) Resource {
	return Resource{Resource: client.Resource{Group: group, Version: version, Name: name, Kind: kind, Namespaced: namespaced, Subresources: subs},
		Verbs: verbs, Preferred: preferred}
}

func TestRead(t *testing.T) {
	_, rc := newServer(t)
	snap, err := Read(context.Background(), rc)
	if err != nil {
		t.Fatal(err)
	}
	want := []Resource{
		res("", "v1", "pods", "Pod", true, true, allVerbs, "status"),
		res("", "v1", "bindings", "Binding", true, true, []string{"create"}),
		res("", "v1", "namespaces", "Namespace", false, true, allVerbs),
		res("stable.example.com", "v1", "crontabs", "CronTab", true, true, allVerbs, "scale"),
		res("stable.example.com", "v1beta1", "crontabs", "CronTab", true, false, allVerbs),
		res("stable.example.com", "v1beta1", "oldthings", "OldThing", false, false, []string{"get", "list"}),
	}
	if diff := cmp.Diff(want, snap.Resources); diff != "" {
		t.Errorf("resources (-want +got):\n%s", diff)
	}
	if len(snap.Failed) != 1 || snap.Failed[meta.GroupVersion{Group: "metrics.example.com", Version: "v1"}] == nil {
		t.Errorf("failed %v, want metrics.example.com/v1", snap.Failed)
	}
	if got := snap.FailedGroups(); !cmp.Equal(got, []string{"metrics.example.com"}) {
		t.Errorf("failed groups %v", got)
	}
}

func TestSnapshotSelection(t *testing.T) {
	_, rc := newServer(t)
	snap, err := Read(context.Background(), rc)
	if err != nil {
		t.Fatal(err)
	}
	names := func(rs []Resource) []string {
		var out []string
		for _, r := range rs {
			out = append(out, r.GroupVersion().String()+"/"+r.Name)
		}
		return out
	}
	tests := []struct {
		name string
		got  []Resource
		want []string
	}{
		{"preferred", snap.Preferred(), []string{"v1/pods", "v1/bindings", "v1/namespaces", "stable.example.com/v1/crontabs", "stable.example.com/v1beta1/oldthings"}},
		{"deletable", Supporting(snap.Preferred(), VerbList, VerbDelete), []string{"v1/pods", "v1/namespaces", "stable.example.com/v1/crontabs"}},
		{"listable", Supporting(snap.Preferred(), VerbList), []string{"v1/pods", "v1/namespaces", "stable.example.com/v1/crontabs", "stable.example.com/v1beta1/oldthings"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, names(tc.got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// fakeClock is a clock whose time moves only when told; its timers never
// fire.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) step(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func (c *fakeClock) NewTimer(time.Duration) workqueue.Timer { return idleTimer{} }

type idleTimer struct{}

func (idleTimer) C() <-chan time.Time { return nil }
func (idleTimer) Stop() bool          { return true }

func TestSetKeepsFailedGroups(t *testing.T) {
	s, rc := newServer(t)
	set := NewSet(rc, nil)
	ctx := context.Background()
	metrics := meta.GroupVersion{Group: "metrics.example.com", Version: "v1"}
	// The metrics group comes up: its resources are in.
	s.set("/apis/metrics.example.com/v1", list("metrics.example.com/v1",
		meta.APIResource{Name: "podmetrics", Namespaced: true, Kind: "PodMetrics", Verbs: []string{"get", "list"}}), 0)
	snap, err := set.Refresh(ctx)
	if err != nil || len(snap.Failed) != 0 || !hasResource(snap, metrics, "podmetrics") {
		t.Fatalf("refresh: %v, failed %v", err, snap.Failed)
	}
	// It goes down: reported failed, its resources kept.
	s.set("/apis/metrics.example.com/v1", nil, http.StatusServiceUnavailable)
	snap, err = set.Refresh(ctx)
	if err != nil || snap.Failed[metrics] == nil || !hasResource(snap, metrics, "podmetrics") {
		t.Fatalf("refresh with the group down: %v, failed %v, kept %v", err, snap.Failed, hasResource(snap, metrics, "podmetrics"))
	}
	// A custom group goes away (404): its resources go, without a failure.
	s.set("/apis/stable.example.com/v1", nil, http.StatusNotFound)
	s.set("/apis/stable.example.com/v1beta1", nil, http.StatusNotFound)
	snap, err = set.Refresh(ctx)
	if err != nil || len(snap.Failed) != 1 || hasResource(snap, meta.GroupVersion{Group: "stable.example.com", Version: "v1"}, "crontabs") {
		t.Fatalf("refresh with a group gone: %v, failed %v", err, snap.Failed)
	}
	// /apis fails: the refresh fails and the last snapshot stays.
	s.set("/apis", nil, http.StatusInternalServerError)
	got, err := set.Refresh(ctx)
	if err == nil {
		t.Fatal("refresh with /apis failing succeeded")
	}
	if last, _ := set.Last(); !cmp.Equal(len(got.Resources), len(snap.Resources)) || len(last.Resources) != len(snap.Resources) {
		t.Errorf("snapshot after a failed refresh: %d resources, want %d", len(last.Resources), len(snap.Resources))
	}
}

func hasResource(snap Snapshot, gv meta.GroupVersion, name string) bool {
	for _, r := range snap.Resources {
		if r.GroupVersion() == gv && r.Name == name {
			return true
		}
	}
	return false
}

func TestSetGetMaxAge(t *testing.T) {
	s, rc := newServer(t)
	clock := &fakeClock{now: time.Unix(100, 0)}
	set := NewSet(rc, clock)
	ctx := context.Background()
	if _, ok := set.Last(); ok {
		t.Fatal("a new set has a snapshot")
	}
	steps := []struct {
		advance time.Duration
		reads   int
	}{{0, 1}, {time.Second, 1}, {4 * time.Second, 1}, {time.Second, 2}, {0, 2}}
	for i, st := range steps {
		clock.step(st.advance)
		if _, err := set.Get(ctx, 5*time.Second); err != nil {
			t.Fatal(err)
		}
		if got := s.apisReads(); got != st.reads {
			t.Errorf("step %d: %d reads of /apis, want %d", i, got, st.reads)
		}
	}
}

func TestSetRun(t *testing.T) {
	s, rc := newServer(t)
	set := NewSet(rc, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	observed := make(chan Snapshot)
	done := make(chan struct{})
	go func() {
		defer close(done)
		set.Run(ctx, time.Millisecond, func(snap Snapshot, err error) {
			if err == nil {
				select {
				case observed <- snap:
				case <-ctx.Done():
				}
			}
		})
	}()
	<-observed
	s.set("/apis/metrics.example.com/v1", list("metrics.example.com/v1",
		meta.APIResource{Name: "podmetrics", Namespaced: true, Kind: "PodMetrics", Verbs: []string{"get", "list"}}), 0)
	for snap := range observed {
		if hasResource(snap, meta.GroupVersion{Group: "metrics.example.com", Version: "v1"}, "podmetrics") {
			break
		}
	}
	cancel()
	<-done
}

// TestSetRefreshShared: callers that ask while a read is in flight share
// the next read; none gets a snapshot read before it asked.
func TestSetRefreshShared(t *testing.T) {
	s, rc := newServer(t)
	set := NewSet(rc, nil)
	ctx := context.Background()
	if _, err := set.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if _, err := set.Refresh(ctx); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if got := s.apisReads(); got < 2 || got > 9 {
		t.Errorf("%d reads of /apis for 1+8 refreshes", got)
	}
	before := s.apisReads()
	if _, err := set.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if got := s.apisReads(); got != before+1 {
		t.Errorf("a lone refresh read /apis %d times, want 1", got-before)
	}
}
