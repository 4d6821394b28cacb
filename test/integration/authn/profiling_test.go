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
	waitForOK(t, s, "the bootstrap RBAC policy", root, "/readyz")
	expectGets(t, s, []get{
		{root, "/debug/pprof/", http.StatusOK},
		{root, "/debug/pprof/heap?debug=1", http.StatusOK},
		{root, "/debug/pprof/goroutine?debug=1", http.StatusOK},
		{carol, "/debug/pprof/", http.StatusForbidden},
		{carol, "/debug/pprof/heap?debug=1", http.StatusForbidden},
		{request{name: "anonymous"}, "/debug/pprof/", http.StatusForbidden},
	})

	// A rule on the non-resource URL lets carol in.
	s.Do(t, "POST", "/apis/rbac.authorization.platform.io/v1/clusterroles",
		`{"metadata":{"name":"profiler"},"rules":[{"nonResourceURLs":["/debug/pprof","/debug/pprof/*"],"verbs":["get"]}]}`).Expect(t, http.StatusCreated)
	s.Do(t, "POST", "/apis/rbac.authorization.platform.io/v1/clusterrolebindings",
		`{"metadata":{"name":"carol-profiles"},"roleRef":{"apiGroup":"rbac.authorization.platform.io","kind":"ClusterRole","name":"profiler"},"subjects":[{"apiGroup":"rbac.authorization.platform.io","kind":"User","name":"carol"}]}`).Expect(t, http.StatusCreated)
	waitForOK(t, s, "carol's profiling binding", carol, "/debug/pprof/heap?debug=1")

	off := framework.Start(t, f.options(options.ModeRBAC), func(o *options.Options) { o.Debugging.EnableProfiling = false })
	waitForOK(t, off, "the bootstrap RBAC policy (profiling off)", root, "/readyz")
	if code, st := do(t, off, root, "/debug/pprof/", nil); code != http.StatusNotFound {
		t.Errorf("root GET /debug/pprof/ with --profiling=false: %d %v, want 404", code, st)
	}
}
