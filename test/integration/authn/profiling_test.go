package authn

import (
	"net/http"
	"testing"

	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/test/integration/framework"
)

// TestProfiling: /debug/pprof/ is served with --profiling (the default)
// to whoever may get the path, a cluster administrator by default or a
// user an RBAC rule on the non-resource URL lets in, and refused to
// others; --profiling=false serves nothing there.
func TestProfiling(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	admin := clientCert(t, f.clientCA, "root", "system:masters")
	root, carol := request{name: "root", cert: &admin}, request{name: "carol", cert: &f.carol}
	s := framework.Start(t, f.options(options.ModeRBAC))
	waitFor(t, "the bootstrap RBAC policy", func() bool {
		code, _ := do(t, s, root, "/readyz", nil)
		return code == http.StatusOK
	})
	for _, tc := range []struct {
		req  request
		path string
		want int
	}{
		{root, "/debug/pprof/", http.StatusOK},
		{root, "/debug/pprof/heap?debug=1", http.StatusOK},
		{root, "/debug/pprof/goroutine?debug=1", http.StatusOK},
		{carol, "/debug/pprof/", http.StatusForbidden},
		{carol, "/debug/pprof/heap?debug=1", http.StatusForbidden},
		{request{name: "anonymous"}, "/debug/pprof/", http.StatusForbidden},
	} {
		if code, st := do(t, s, tc.req, tc.path, nil); code != tc.want {
			t.Errorf("%s GET %s: %d %v, want %d", tc.req.name, tc.path, code, st, tc.want)
		}
	}

	// A rule on the non-resource URL lets carol in.
	s.Do(t, "POST", "/apis/rbac.authorization.platform.io/v1/clusterroles",
		`{"metadata":{"name":"profiler"},"rules":[{"nonResourceURLs":["/debug/pprof","/debug/pprof/*"],"verbs":["get"]}]}`).Expect(t, http.StatusCreated)
	s.Do(t, "POST", "/apis/rbac.authorization.platform.io/v1/clusterrolebindings",
		`{"metadata":{"name":"carol-profiles"},"roleRef":{"apiGroup":"rbac.authorization.platform.io","kind":"ClusterRole","name":"profiler"},"subjects":[{"apiGroup":"rbac.authorization.platform.io","kind":"User","name":"carol"}]}`).Expect(t, http.StatusCreated)
	waitFor(t, "carol's profiling binding", func() bool {
		code, _ := do(t, s, carol, "/debug/pprof/heap?debug=1", nil)
		return code == http.StatusOK
	})

	off := framework.Start(t, f.options(options.ModeRBAC), func(o *options.Options) { o.Debugging.EnableProfiling = false })
	waitFor(t, "the bootstrap RBAC policy (profiling off)", func() bool {
		code, _ := do(t, off, root, "/readyz", nil)
		return code == http.StatusOK
	})
	if code, st := do(t, off, root, "/debug/pprof/", nil); code != http.StatusNotFound {
		t.Errorf("root GET /debug/pprof/ with --profiling=false: %d %v, want 404", code, st)
	}
}
