package apiserver

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/test/integration/framework"
)

// TestWatchProtocol_1_ChunkedEventsAfterListVersion: a watch (watch=true or
// watch=1) from a list's resourceVersion is a 200 chunked stream of one
// WatchEvent JSON object per line, for every create, update and delete after
// that version and nothing before; the remove event is DELETED and carries
// the last state.
func TestWatchProtocol_1_ChunkedEventsAfterListVersion(t *testing.T) {
	t.Parallel()
	eachCacheMode(t, func(t *testing.T, s *framework.Server) {
		createNamespace(t, s, "w1")
		coll := "/api/v1/namespaces/w1/configmaps"
		s.Do(t, "POST", coll, cm("before", "", "0")).Expect(t, http.StatusCreated)
		rv := listRV(t, s, coll)
		wTrue := mustWatch(t, s, coll+q("watch", "true", "resourceVersion", rv))
		wOne := mustWatch(t, s, coll+q("watch", "1", "resourceVersion", rv))

		created := s.Do(t, "POST", coll, cm("a", "", "1")).Expect(t, http.StatusCreated).Map(t)
		patched := s.Do(t, "PATCH", coll+"/a", `{"data":{"k":"2"}}`, mergePatch).Expect(t, http.StatusOK).Map(t)
		s.Do(t, "DELETE", coll+"/a", nil).Expect(t, http.StatusOK)

		for _, w := range []*watchStream{wTrue, wOne} {
			add := w.Expect("ADDED", "a")
			mod := w.Expect("MODIFIED", "a")
			del := w.Expect("DELETED", "a")
			for _, e := range []watchEvent{add, mod, del} {
				if e.Object["kind"] != "ConfigMap" || e.Object["apiVersion"] != "v1" || e.namespace() != "w1" {
					t.Fatalf("event object lacks kind/apiVersion/namespace: %s", e)
				}
			}
			if add.rv() != rvOf(t, created) || get(add.Object, "data", "k") != "1" {
				t.Fatalf("ADDED %s, want the created object (resourceVersion %s)", add, rvOf(t, created))
			}
			if mod.rv() != rvOf(t, patched) || get(mod.Object, "data", "k") != "2" {
				t.Fatalf("MODIFIED %s, want the patched object (resourceVersion %s)", mod, rvOf(t, patched))
			}
			if get(del.Object, "data", "k") != "2" {
				t.Fatalf("DELETED %s does not carry the last state (data.k 2)", del)
			}
			if atoi(t, del.rv()) <= atoi(t, mod.rv()) {
				t.Fatalf("DELETED resourceVersion %s is not after the last change %s", del.rv(), mod.rv())
			}
			w.ExpectNothing(300 * time.Millisecond)
		}
	})
}

// TestWatchProtocol_DeprecatedWatchPaths: /watch/... paths watch one
// object, a namespace, or all namespaces, with the same stream format.
func TestWatchProtocol_DeprecatedWatchPaths(t *testing.T) {
	t.Parallel()
	eachCacheMode(t, func(t *testing.T, s *framework.Server) {
		createNamespace(t, s, "wa")
		createNamespace(t, s, "wb")
		rv := listRV(t, s, "/api/v1/configmaps")
		one := mustWatch(t, s, "/api/v1/watch/namespaces/wa/configmaps/x"+q("resourceVersion", rv))
		ns := mustWatch(t, s, "/api/v1/watch/namespaces/wa/configmaps"+q("resourceVersion", rv))
		all := mustWatch(t, s, "/api/v1/watch/configmaps"+q("resourceVersion", rv))
		nrv := listRV(t, s, "/api/v1/nodes")
		node := mustWatch(t, s, "/api/v1/watch/nodes/n1"+q("resourceVersion", nrv))
		drv := listRV(t, s, "/apis/apps/v1/namespaces/wa/deployments")
		dep := mustWatch(t, s, "/apis/apps/v1/watch/namespaces/wa/deployments"+q("resourceVersion", drv))

		s.Do(t, "POST", "/api/v1/namespaces/wa/configmaps", cm("x", "", "1")).Expect(t, http.StatusCreated)
		s.Do(t, "POST", "/api/v1/namespaces/wa/configmaps", cm("y", "", "1")).Expect(t, http.StatusCreated)
		s.Do(t, "POST", "/api/v1/namespaces/wb/configmaps", cm("x", "", "1")).Expect(t, http.StatusCreated)
		s.Do(t, "PATCH", "/api/v1/namespaces/wa/configmaps/x", `{"data":{"k":"2"}}`, mergePatch).Expect(t, http.StatusOK)
		s.Do(t, "DELETE", "/api/v1/namespaces/wa/configmaps/x", nil).Expect(t, http.StatusOK)
		s.Do(t, "POST", "/api/v1/nodes", `{"metadata":{"name":"n2"}}`).Expect(t, http.StatusCreated)
		s.Do(t, "POST", "/api/v1/nodes", `{"metadata":{"name":"n1"}}`).Expect(t, http.StatusCreated)
		s.Do(t, "POST", "/apis/apps/v1/namespaces/wa/deployments", sampleOf(t, "Deployment", "apps/v1").object("d", "wa")).Expect(t, http.StatusCreated)

		one.Expect("ADDED", "x")
		one.Expect("MODIFIED", "x")
		one.Expect("DELETED", "x")
		one.ExpectNothing(200 * time.Millisecond)

		ns.Expect("ADDED", "x")
		ns.Expect("ADDED", "y")
		ns.Expect("MODIFIED", "x")
		ns.Expect("DELETED", "x")
		ns.ExpectNothing(200 * time.Millisecond)

		var got []string
		for len(got) < 5 {
			e := all.Next(10 * time.Second)
			if e.namespace() == "wa" || e.namespace() == "wb" {
				got = append(got, e.Type+" "+e.namespace()+"/"+e.name())
			}
		}
		want := []string{"ADDED wa/x", "ADDED wa/y", "ADDED wb/x", "MODIFIED wa/x", "DELETED wa/x"}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("all-namespaces watch: %v, want %v", got, want)
		}

		node.Expect("ADDED", "n1")
		node.ExpectNothing(200 * time.Millisecond)
		if e := dep.Expect("ADDED", "d"); e.Object["kind"] != "Deployment" || e.Object["apiVersion"] != "apps/v1" {
			t.Fatalf("deployment event %s", e)
		}
	})
}

// TestWatch_ResourceVersionUnsetOrZero_ExistingObjectsFirst: without
// resourceVersion (and with 0) a watch first sends ADDED for every existing
// object, then the changes; with a resourceVersion it sends only changes.
func TestWatch_ResourceVersionUnsetOrZero_ExistingObjectsFirst(t *testing.T) {
	t.Parallel()
	eachCacheMode(t, func(t *testing.T, s *framework.Server) {
		createNamespace(t, s, "w0")
		coll := "/api/v1/namespaces/w0/configmaps"
		for _, n := range []string{"a", "b", "c"} {
			s.Do(t, "POST", coll, cm(n, `{"n":"`+n+`"}`, "1")).Expect(t, http.StatusCreated)
		}
		rv := listRV(t, s, coll)
		unset := mustWatch(t, s, coll+"?watch=true")
		zero := mustWatch(t, s, coll+"?watch=true&resourceVersion=0")
		one := mustWatch(t, s, "/api/v1/watch/namespaces/w0/configmaps/b")
		byName := mustWatch(t, s, coll+q("watch", "true", "fieldSelector", "metadata.name=c"))
		byLabel := mustWatch(t, s, coll+q("watch", "true", "labelSelector", "n in (a,c)"))
		fromRV := mustWatch(t, s, coll+q("watch", "true", "resourceVersion", rv))

		for _, w := range []*watchStream{unset, zero} {
			w.ExpectSet("ADDED a", "ADDED b", "ADDED c")
		}
		one.Expect("ADDED", "b")
		byName.Expect("ADDED", "c")
		byLabel.ExpectSet("ADDED a", "ADDED c")

		s.Do(t, "POST", coll, cm("d", `{"n":"d"}`, "1")).Expect(t, http.StatusCreated)
		s.Do(t, "PATCH", coll+"/b", `{"data":{"k":"2"}}`, mergePatch).Expect(t, http.StatusOK)
		s.Do(t, "PATCH", coll+"/c", `{"data":{"k":"2"}}`, mergePatch).Expect(t, http.StatusOK)
		for _, w := range []*watchStream{unset, zero, fromRV} {
			w.Expect("ADDED", "d")
			w.Expect("MODIFIED", "b")
			w.Expect("MODIFIED", "c")
			w.ExpectNothing(200 * time.Millisecond)
		}
		one.Expect("MODIFIED", "b")
		byName.Expect("MODIFIED", "c")
		byLabel.Expect("MODIFIED", "c")
		for _, w := range []*watchStream{one, byName, byLabel} {
			w.ExpectNothing(200 * time.Millisecond)
		}
	})
}

// TestWatch_ResumeOlderThanCacheWindow_MissesNothing: the kept history is
// etcd's, not the watch cache's window: a watch from a version older than
// the window (5 events here) but not compacted gets every later change, in
// order, then the new ones. (Compacted versions: 410, in package compaction.)
func TestWatch_ResumeOlderThanCacheWindow_MissesNothing(t *testing.T) {
	t.Parallel()
	s := framework.Start(t, func(o *options.Options) { o.API.WatchCache = true; o.API.DefaultWatchCacheSize = 5 })
	createNamespace(t, s, "old")
	coll := "/api/v1/namespaces/old/configmaps"
	first := rvOf(t, s.Do(t, "POST", coll, cm("a", "", "0")).Expect(t, http.StatusCreated).Map(t))
	var rvs []string
	for i := 1; i <= 20; i++ {
		obj := s.Do(t, "PATCH", coll+"/a", fmt.Sprintf(`{"data":{"k":"%d"}}`, i), mergePatch).Expect(t, http.StatusOK).Map(t)
		rvs = append(rvs, rvOf(t, obj))
	}
	// A consistent list waits for the cache to catch up with etcd, so the
	// window holds only the last 5 changes.
	listRV(t, s, coll)
	var ws []*watchStream
	for _, path := range []string{
		coll + q("watch", "true", "resourceVersion", first),
		"/api/v1/watch/namespaces/old/configmaps/a" + q("resourceVersion", first),
		coll + q("watch", "true", "resourceVersion", first, "labelSelector", "!nothing"),
		coll + q("watch", "true", "resourceVersion", rvs[17]), // inside the window
	} {
		ws = append(ws, mustWatch(t, s, path))
	}
	last := s.Do(t, "PATCH", coll+"/a", `{"data":{"k":"live"}}`, mergePatch).Expect(t, http.StatusOK).Map(t)
	rvs = append(rvs, rvOf(t, last))
	for n, w := range ws {
		from := 0
		if n == 3 {
			from = 18
		}
		for i := from; i < len(rvs); i++ {
			if e := w.Expect("MODIFIED", "a"); e.rv() != rvs[i] {
				t.Fatalf("watch %s: event %d is %s, want resourceVersion %s", w.path, i, e, rvs[i])
			}
		}
		w.ExpectNothing(100 * time.Millisecond)
	}
}

// TestWatch_TimeoutSecondsEndsCleanly: timeoutSeconds closes the stream with
// a proper end of the chunked body, no ERROR, after about that time.
func TestWatch_TimeoutSecondsEndsCleanly(t *testing.T) {
	t.Parallel()
	eachCacheMode(t, func(t *testing.T, s *framework.Server) {
		createNamespace(t, s, "wt")
		coll := "/api/v1/namespaces/wt/configmaps"
		rv := listRV(t, s, coll)
		start := time.Now()
		streams := []*watchStream{
			mustWatch(t, s, coll+q("watch", "true", "resourceVersion", rv, "timeoutSeconds", "1")),
			mustWatch(t, s, coll+"?watch=true&timeoutSeconds=1"),
			mustWatch(t, s, "/api/v1/watch/namespaces/wt/configmaps/x?timeoutSeconds=1"),
		}
		s.Do(t, "POST", coll, cm("x", "", "1")).Expect(t, http.StatusCreated)
		for _, w := range streams {
			evs := w.Drain(8 * time.Second)
			if len(evs) != 1 || evs[0].Type != "ADDED" || evs[0].name() != "x" {
				t.Fatalf("watch %s: events %v, want only ADDED x", w.path, evs)
			}
		}
		if d := time.Since(start); d < 900*time.Millisecond || d > 6*time.Second {
			t.Fatalf("watches with timeoutSeconds=1 ended after %v", d)
		}
	})
}

// TestWatch_SelectorTransitions: with a label or field selector, an object
// that stops matching yields DELETED and one that starts matching ADDED;
// changes to objects that never match are not sent.
func TestWatch_SelectorTransitions(t *testing.T) {
	t.Parallel()
	eachCacheMode(t, func(t *testing.T, s *framework.Server) {
		createNamespace(t, s, "sel")
		coll := "/api/v1/namespaces/sel/configmaps"
		rv := listRV(t, s, coll)
		w := mustWatch(t, s, coll+q("watch", "true", "resourceVersion", rv, "labelSelector", "app=web"))
		wSet := mustWatch(t, s, coll+q("watch", "true", "resourceVersion", rv, "labelSelector", "app in (web),tier!=db"))
		wName := mustWatch(t, s, coll+q("watch", "true", "resourceVersion", rv, "fieldSelector", "metadata.name=m2"))

		s.Do(t, "POST", coll, cm("m1", `{"app":"web"}`, "1")).Expect(t, http.StatusCreated)
		s.Do(t, "POST", coll, cm("m2", `{"app":"db"}`, "1")).Expect(t, http.StatusCreated)
		out := s.Do(t, "PATCH", coll+"/m1", `{"metadata":{"labels":{"app":"db"}}}`, mergePatch).Expect(t, http.StatusOK).Map(t)
		s.Do(t, "PATCH", coll+"/m2", `{"metadata":{"labels":{"app":"web"}}}`, mergePatch).Expect(t, http.StatusOK)
		s.Do(t, "PATCH", coll+"/m2", `{"metadata":{"labels":{"tier":"db"}}}`, mergePatch).Expect(t, http.StatusOK)
		s.Do(t, "PATCH", coll+"/m1", `{"data":{"k":"2"}}`, mergePatch).Expect(t, http.StatusOK)
		s.Do(t, "DELETE", coll+"/m2", nil).Expect(t, http.StatusOK)
		s.Do(t, "DELETE", coll+"/m1", nil).Expect(t, http.StatusOK)
		s.Do(t, "POST", coll, cm("m3", `{"app":"web"}`, "1")).Expect(t, http.StatusCreated)

		w.Expect("ADDED", "m1")
		if e := w.Expect("DELETED", "m1"); e.rv() != rvOf(t, out) {
			t.Fatalf("DELETED on leaving the selector: %s, want resourceVersion %s of the change", e, rvOf(t, out))
		}
		w.Expect("ADDED", "m2")
		w.Expect("MODIFIED", "m2")
		w.Expect("DELETED", "m2")
		w.Expect("ADDED", "m3")
		w.ExpectNothing(200 * time.Millisecond)

		wSet.Expect("ADDED", "m1")
		wSet.Expect("DELETED", "m1")
		wSet.Expect("ADDED", "m2")
		wSet.Expect("DELETED", "m2") // tier=db: leaves the selector
		wSet.Expect("ADDED", "m3")
		wSet.ExpectNothing(200 * time.Millisecond)

		wName.Expect("ADDED", "m2")
		wName.Expect("MODIFIED", "m2")
		wName.Expect("MODIFIED", "m2")
		wName.Expect("DELETED", "m2")
		wName.ExpectNothing(200 * time.Millisecond)

		// A per-type field: nodes by spec.unschedulable.
		nrv := listRV(t, s, "/api/v1/nodes")
		wn := mustWatch(t, s, "/api/v1/nodes"+q("watch", "true", "resourceVersion", nrv, "fieldSelector", "spec.unschedulable=true"))
		s.Do(t, "POST", "/api/v1/nodes", `{"metadata":{"name":"n1"},"spec":{}}`).Expect(t, http.StatusCreated)
		s.Do(t, "PATCH", "/api/v1/nodes/n1", `{"spec":{"unschedulable":true}}`, mergePatch).Expect(t, http.StatusOK)
		s.Do(t, "PATCH", "/api/v1/nodes/n1", `{"metadata":{"labels":{"a":"b"}}}`, mergePatch).Expect(t, http.StatusOK)
		s.Do(t, "PATCH", "/api/v1/nodes/n1", `{"spec":{"unschedulable":false}}`, mergePatch).Expect(t, http.StatusOK)
		s.Do(t, "POST", "/api/v1/nodes", `{"metadata":{"name":"n2"},"spec":{"unschedulable":true}}`).Expect(t, http.StatusCreated)
		wn.Expect("ADDED", "n1")
		wn.Expect("MODIFIED", "n1")
		wn.Expect("DELETED", "n1")
		wn.Expect("ADDED", "n2")
		wn.ExpectNothing(200 * time.Millisecond)
	})
}

// TestWatch_ResumeAfterDisconnect_MissesNothing: a client that reconnects
// from the last resourceVersion it saw gets exactly the changes it missed.
func TestWatch_ResumeAfterDisconnect_MissesNothing(t *testing.T) {
	t.Parallel()
	eachCacheMode(t, func(t *testing.T, s *framework.Server) {
		createNamespace(t, s, "res")
		coll := "/api/v1/namespaces/res/configmaps"
		rv := listRV(t, s, coll)
		w := mustWatch(t, s, coll+q("watch", "true", "resourceVersion", rv))
		s.Do(t, "POST", coll, cm("a", "", "1")).Expect(t, http.StatusCreated)
		s.Do(t, "POST", coll, cm("b", "", "1")).Expect(t, http.StatusCreated)
		addA := w.Expect("ADDED", "a")
		last := w.Expect("ADDED", "b").rv()
		w.Close()

		s.Do(t, "PATCH", coll+"/a", `{"data":{"k":"2"}}`, mergePatch).Expect(t, http.StatusOK)
		s.Do(t, "DELETE", coll+"/b", nil).Expect(t, http.StatusOK)
		s.Do(t, "POST", coll, cm("c", "", "1")).Expect(t, http.StatusCreated)

		r := mustWatch(t, s, coll+q("watch", "true", "resourceVersion", last))
		r.Expect("MODIFIED", "a")
		r.Expect("DELETED", "b")
		r.Expect("ADDED", "c")
		r.ExpectNothing(300 * time.Millisecond)

		// From an earlier point: everything after it, once.
		r2 := mustWatch(t, s, coll+q("watch", "true", "resourceVersion", addA.rv()))
		r2.Expect("ADDED", "b")
		r2.Expect("MODIFIED", "a")
		r2.Expect("DELETED", "b")
		r2.Expect("ADDED", "c")
		r2.ExpectNothing(300 * time.Millisecond)
	})
}

// TestWatch_ResumeAfterServerRestart_MissesNothing: a client that resumes
// from its last resourceVersion on a restarted API server (same etcd) gets
// every change made since, including those made before the restart.
func TestWatch_ResumeAfterServerRestart_MissesNothing(t *testing.T) {
	t.Parallel()
	for _, m := range cacheModes {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			s1 := framework.Start(t, m.opt)
			createNamespace(t, s1, "rs")
			coll := "/api/v1/namespaces/rs/configmaps"
			rv := listRV(t, s1, coll)
			w := mustWatch(t, s1, coll+q("watch", "true", "resourceVersion", rv))
			s1.Do(t, "POST", coll, cm("a", "", "1")).Expect(t, http.StatusCreated)
			last := w.Expect("ADDED", "a").rv()
			w.Close()
			s1.Do(t, "POST", coll, cm("b", "", "1")).Expect(t, http.StatusCreated)
			s1.Do(t, "PATCH", coll+"/a", `{"data":{"k":"2"}}`, mergePatch).Expect(t, http.StatusOK)
			s1.Stop()

			s2 := framework.Start(t, m.opt, framework.SamePrefix(s1))
			s2.Do(t, "DELETE", coll+"/b", nil).Expect(t, http.StatusOK)
			s2.Do(t, "POST", coll, cm("c", "", "1")).Expect(t, http.StatusCreated)
			r := openWatch(t, s2, coll+q("watch", "true", "resourceVersion", last))
			if r.Code != http.StatusOK {
				t.Fatalf("resume from %s after restart: HTTP %d %s, want the missed events", last, r.Code, r.Body)
			}
			r.Expect("ADDED", "b")
			r.Expect("MODIFIED", "a")
			r.Expect("DELETED", "b")
			r.Expect("ADDED", "c")
			r.ExpectNothing(300 * time.Millisecond)
		})
	}
}

// TestWatch_ManyConcurrentWatchers: 200 watchers of one collection all
// receive every change, in order.
func TestWatch_ManyConcurrentWatchers(t *testing.T) {
	t.Parallel()
	eachCacheMode(t, func(t *testing.T, s *framework.Server) {
		createNamespace(t, s, "many")
		coll := "/api/v1/namespaces/many/configmaps"
		rv := listRV(t, s, coll)
		const n = 200
		ws := make([]*watchStream, n)
		var mu sync.Mutex
		var wg sync.WaitGroup
		var failed []string
		for i := range ws {
			wg.Add(1)
			go func() {
				defer wg.Done()
				w, err := tryWatch(t, s, coll+q("watch", "true", "resourceVersion", rv))
				switch {
				case err != nil:
					mu.Lock()
					failed = append(failed, fmt.Sprintf("watcher %d: %v", i, err))
					mu.Unlock()
				case w.Code != http.StatusOK:
					mu.Lock()
					failed = append(failed, fmt.Sprintf("watcher %d: HTTP %d %s", i, w.Code, w.Body))
					mu.Unlock()
				}
				ws[i] = w
			}()
		}
		wg.Wait()
		if len(failed) > 0 {
			t.Fatalf("%d watches failed to open: %v", len(failed), failed[0])
		}
		const changes = 5
		for i := 0; i < changes; i++ {
			s.Do(t, "POST", coll, cm(fmt.Sprintf("c%d", i), "", "1")).Expect(t, http.StatusCreated)
		}
		for i, w := range ws {
			for j := 0; j < changes; j++ {
				e, ok, err := w.next(15 * time.Second)
				if !ok || e.Type != "ADDED" || e.name() != fmt.Sprintf("c%d", j) {
					t.Fatalf("watcher %d, event %d: %s (ok %v, %v), want ADDED c%d", i, j, e, ok, err, j)
				}
			}
		}
	})
}

// TestWatch_ContinueOrLimitWithWatch_BadRequest: continue and limit are not
// valid with watch: 400.
func TestWatch_ContinueOrLimitWithWatch_BadRequest(t *testing.T) {
	t.Parallel()
	s := framework.Start(t)
	createNamespace(t, s, "wl")
	coll := "/api/v1/namespaces/wl/configmaps"
	for i := 0; i < 3; i++ {
		s.Do(t, "POST", coll, cm(fmt.Sprintf("c%d", i), "", "1")).Expect(t, http.StatusCreated)
	}
	_, _, l := list(t, s, coll+"?limit=1")
	token, _ := get(l, "metadata", "continue").(string)
	if token == "" {
		t.Fatal("no continue token")
	}
	for _, p := range []string{
		coll + "?watch=true&limit=1",
		coll + "?watch=1&limit=0",
		coll + q("watch", "true", "continue", token),
		"/api/v1/watch/namespaces/wl/configmaps?limit=2",
		"/api/v1/watch/namespaces/wl/configmaps" + q("continue", token),
	} {
		w := openWatch(t, s, p)
		if w.Code != http.StatusBadRequest {
			t.Errorf("%s: HTTP %d, want 400; body %.300s", p, w.Code, w.Body)
		}
	}
}

// TestWatch_UnknownFieldSelector_BadRequest: a watch selecting on a field
// the type does not have fails with 400 before streaming.
func TestWatch_UnknownFieldSelector_BadRequest(t *testing.T) {
	t.Parallel()
	s := framework.Start(t)
	for _, p := range []string{
		"/api/v1/namespaces/default/configmaps" + q("watch", "true", "fieldSelector", "status.phase=Running"),
		"/api/v1/watch/namespaces/default/pods" + q("fieldSelector", "spec.bogus=x"),
		"/api/v1/nodes" + q("watch", "1", "fieldSelector", "spec.nodeName=x"),
	} {
		w := openWatch(t, s, p)
		if w.Code != http.StatusBadRequest {
			t.Errorf("%s: HTTP %d, want 400; body %.300s", p, w.Code, w.Body)
		}
	}
}
