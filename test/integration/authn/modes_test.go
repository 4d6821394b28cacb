package authn

import (
	"net/http"
	"testing"
	"time"

	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/test/integration/framework"
)

// TestModesThroughTheChain: requests authenticated by the chain are decided
// by the ordered modes of a real server: ABAC's policy file, then RBAC's
// bindings; a member of system:masters passes whatever the modes; and the
// SubjectAccessReview API answers with the same chain.
func TestModesThroughTheChain(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	policy := f.write(t, "policy.jsonl",
		`{"apiVersion":"abac.authorization.platform.io/v1beta1","kind":"Policy","spec":{"user":"tim","namespace":"default","resource":"configmaps","readonly":true}}`+"\n")
	admin := clientCert(t, f.clientCA, "root", "system:masters")
	s := framework.Start(t, f.options(options.ModeABAC, options.ModeRBAC), func(o *options.Options) {
		o.Authz.PolicyFile = policy
	})
	waitForOK(t, s, "the bootstrap RBAC policy", request{name: "root", cert: &admin}, "/readyz")
	// carol may read pods in default through a RoleBinding.
	s.Do(t, "POST", "/apis/rbac.authorization.platform.io/v1/namespaces/default/roles",
		`{"metadata":{"name":"pod-reader"},"rules":[{"apiGroups":[""],"resources":["pods"],"verbs":["get","list"]}]}`).Expect(t, http.StatusCreated)
	s.Do(t, "POST", "/apis/rbac.authorization.platform.io/v1/namespaces/default/rolebindings",
		`{"metadata":{"name":"carol-reads"},"roleRef":{"apiGroup":"rbac.authorization.platform.io","kind":"Role","name":"pod-reader"},"subjects":[{"apiGroup":"rbac.authorization.platform.io","kind":"User","name":"carol"}]}`).Expect(t, http.StatusCreated)

	tim := request{name: "tim", headers: map[string]string{"Authorization": "Bearer static-token"}}
	carol := request{name: "carol", cert: &f.carol}
	root := request{name: "root", cert: &admin}
	expectGets(t, s, []get{
		{tim, "/api/v1/namespaces/default/configmaps", http.StatusOK},
		{tim, "/api/v1/namespaces/other/configmaps", http.StatusForbidden},
		{tim, "/api/v1/namespaces/default/pods", http.StatusForbidden},
		{carol, "/api/v1/namespaces/default/pods", http.StatusOK},
		{carol, "/api/v1/namespaces/default/configmaps", http.StatusForbidden},
		{carol, "/api/v1/namespaces/kube/pods", http.StatusForbidden},
		{carol, "/version", http.StatusOK}, // system:public-info-viewer
		{root, "/api/v1/namespaces/other/secrets", http.StatusOK},
	})

	sar := func(user, ns string) bool {
		t.Helper()
		r := s.Do(t, "POST", "/apis/authorization.platform.io/v1/subjectaccessreviews", map[string]any{
			"apiVersion": "authorization.platform.io/v1", "kind": "SubjectAccessReview",
			"spec": map[string]any{"user": user, "resourceAttributes": map[string]any{"verb": "list", "resource": "pods", "namespace": ns}},
		}).Expect(t, http.StatusCreated).Map(t)
		allowed, _ := r["status"].(map[string]any)["allowed"].(bool)
		return allowed
	}
	if !sar("carol", "default") || sar("carol", "other") || sar("tim", "default") {
		t.Errorf("SubjectAccessReview does not follow the chain: carol/default %v, carol/other %v, tim/default %v",
			sar("carol", "default"), sar("carol", "other"), sar("tim", "default"))
	}
}

// waitFor polls cond until it holds, failing t after 30s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	framework.Eventually(t, 30*time.Second, what, cond)
}
