package rbac

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/test/integration/framework"
)

// users is the test's token table: "Bearer <name>" is that user, in
// system:authenticated and the listed groups.
var users = map[string][]string{
	"admin": {"system:masters"},
	"alice": nil,
	"bob":   {"team-readers"},
}

// start runs an API server whose requests RBAC decides (--authorization-mode
// RBAC), its users authenticated by a --token-auth-file of the users table,
// and returns it with its secure URL as the URL requests go to.
func start(t *testing.T) *framework.Server {
	t.Helper()
	var lines []string
	for name, groups := range users {
		lines = append(lines, fmt.Sprintf("%s,%s,uid-%s,%q", name, name, name, strings.Join(groups, ",")))
	}
	tokens := filepath.Join(t.TempDir(), "tokens.csv")
	if err := os.WriteFile(tokens, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := framework.Start(t, func(o *options.Options) {
		o.Authz.Modes = []string{options.ModeRBAC}
		o.Authn.TokenAuthFile = tokens
	})
	srv := s.Secure(t)
	waitFor(t, "readyz", func() bool { return srv.Do(t, "GET", "/readyz", nil, as("admin")).Code == http.StatusOK })
	return srv
}

func as(name string) framework.Header { return framework.Header{"Authorization": "Bearer " + name} }

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	framework.Eventually(t, 20*time.Second, what, cond)
}

const rbacAPI = "/apis/rbac.authorization.platform.io/v1"

func binding(ns, name, roleKind, role string, subjects ...map[string]string) map[string]any {
	return map[string]any{
		"apiVersion": "rbac.authorization.platform.io/v1", "kind": "RoleBinding",
		"metadata": map[string]any{"name": name, "namespace": ns},
		"roleRef":  map[string]any{"apiGroup": "rbac.authorization.platform.io", "kind": roleKind, "name": role},
		"subjects": subjects,
	}
}

func userSubject(name string) map[string]string {
	return map[string]string{"kind": "User", "apiGroup": "rbac.authorization.platform.io", "name": name}
}

func TestRBACDecidesRequests(t *testing.T) {
	s := start(t)

	// The bootstrap policy is there, and admin, edit and view are aggregated.
	s.Do(t, "GET", rbacAPI+"/clusterrolebindings/cluster-admin", nil, as("admin")).Expect(t, http.StatusOK)
	waitFor(t, "the admin role's aggregated rules", func() bool {
		var cr struct{ Rules []any }
		s.Do(t, "GET", rbacAPI+"/clusterroles/admin", nil, as("admin")).Expect(t, http.StatusOK).Into(t, &cr)
		return len(cr.Rules) > 10
	})

	// Who may read what before any binding.
	st := s.Do(t, "GET", "/api/v1/namespaces/default/pods", nil, as("alice")).ExpectStatus(t, http.StatusForbidden, "Forbidden")
	if want := `pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"`; st["message"] != want {
		t.Errorf("403 message %q, want %q", st["message"], want)
	}
	s.Do(t, "GET", "/version", nil).Expect(t, http.StatusOK)                        // system:public-info-viewer
	s.Do(t, "GET", "/apis", nil).ExpectStatus(t, http.StatusForbidden, "Forbidden") // discovery is for authenticated users
	s.Do(t, "GET", "/apis", nil, as("alice")).Expect(t, http.StatusOK)

	// The admin grants alice admin in "team" and the group team-readers view.
	s.Do(t, "POST", "/api/v1/namespaces", map[string]any{"metadata": map[string]any{"name": "team"}}, as("admin")).Expect(t, http.StatusCreated)
	s.Do(t, "POST", rbacAPI+"/namespaces/team/rolebindings", binding("team", "alice-admin", "ClusterRole", "admin", userSubject("alice")), as("admin")).Expect(t, http.StatusCreated)
	s.Do(t, "POST", rbacAPI+"/namespaces/team/rolebindings", binding("team", "readers", "ClusterRole", "view",
		map[string]string{"kind": "Group", "name": "team-readers"}), as("admin")).Expect(t, http.StatusCreated)
	waitFor(t, "alice's binding", func() bool {
		return s.Do(t, "GET", "/api/v1/namespaces/team/pods", nil, as("alice")).Code == http.StatusOK
	})
	cm := map[string]any{"metadata": map[string]any{"name": "c"}, "data": map[string]string{"k": "v"}}
	s.Do(t, "POST", "/api/v1/namespaces/team/configmaps", cm, as("alice")).Expect(t, http.StatusCreated)
	s.Do(t, "GET", "/api/v1/namespaces/default/configmaps", nil, as("alice")).ExpectStatus(t, http.StatusForbidden, "Forbidden")
	s.Do(t, "GET", "/api/v1/namespaces/team/configmaps/c", nil, as("bob")).Expect(t, http.StatusOK)
	s.Do(t, "DELETE", "/api/v1/namespaces/team/configmaps/c", nil, as("bob")).ExpectStatus(t, http.StatusForbidden, "Forbidden")
	s.Do(t, "GET", "/api/v1/namespaces/team/secrets", nil, as("bob")).ExpectStatus(t, http.StatusForbidden, "Forbidden")

	// Escalation: alice manages roles in team but cannot grant more than she holds.
	role := func(name string, rules ...map[string]any) map[string]any {
		return map[string]any{"metadata": map[string]any{"name": name}, "rules": rules}
	}
	podReader := map[string]any{"verbs": []string{"get", "list"}, "apiGroups": []string{""}, "resources": []string{"pods"}}
	everything := map[string]any{"verbs": []string{"*"}, "apiGroups": []string{"*"}, "resources": []string{"*"}}
	s.Do(t, "POST", rbacAPI+"/namespaces/team/roles", role("pod-reader", podReader), as("alice")).Expect(t, http.StatusCreated)
	st = s.Do(t, "POST", rbacAPI+"/namespaces/team/roles", role("god", everything), as("alice")).ExpectStatus(t, http.StatusForbidden, "Forbidden")
	if msg, _ := st["message"].(string); !strings.Contains(msg, `user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held`) {
		t.Errorf("escalation message %q", msg)
	}
	s.Do(t, "POST", rbacAPI+"/namespaces/team/rolebindings", binding("team", "bob-reads", "Role", "pod-reader", userSubject("bob")), as("alice")).Expect(t, http.StatusCreated)
	s.Do(t, "POST", rbacAPI+"/namespaces/team/rolebindings", binding("team", "bob-root", "ClusterRole", "cluster-admin", userSubject("bob")), as("alice")).
		ExpectStatus(t, http.StatusForbidden, "Forbidden")
	// A dry run needs the same permission.
	s.Do(t, "POST", rbacAPI+"/namespaces/team/rolebindings?dryRun=All", binding("team", "bob-root", "ClusterRole", "cluster-admin", userSubject("bob")), as("alice")).
		ExpectStatus(t, http.StatusForbidden, "Forbidden")
	waitFor(t, "bob's new binding", func() bool {
		return s.Do(t, "GET", "/api/v1/namespaces/team/pods", nil, as("bob")).Code == http.StatusOK
	})

	// Validation answers 422 with causes; roleRef is immutable.
	url := map[string]any{"verbs": []string{"get"}, "nonResourceURLs": []string{"/healthz"}}
	st = s.Do(t, "POST", rbacAPI+"/namespaces/team/roles", role("bad", url), as("admin")).ExpectStatus(t, http.StatusUnprocessableEntity, "Invalid")
	if !strings.Contains(fmt.Sprint(st["details"]), "rules[0].nonResourceURLs") {
		t.Errorf("causes %v", st["details"])
	}
	var rb map[string]any
	s.Do(t, "GET", rbacAPI+"/namespaces/team/rolebindings/bob-reads", nil, as("admin")).Expect(t, http.StatusOK).Into(t, &rb)
	rb["roleRef"].(map[string]any)["name"] = "other"
	s.Do(t, "PUT", rbacAPI+"/namespaces/team/rolebindings/bob-reads", rb, as("admin")).ExpectStatus(t, http.StatusUnprocessableEntity, "Invalid")

	// Removing the binding takes the rights away.
	s.Do(t, "DELETE", rbacAPI+"/namespaces/team/rolebindings/bob-reads", nil, as("alice")).Expect(t, http.StatusOK)
	s.Do(t, "DELETE", rbacAPI+"/namespaces/team/rolebindings/readers", nil, as("admin")).Expect(t, http.StatusOK)
	waitFor(t, "bob's rights to go", func() bool {
		return s.Do(t, "GET", "/api/v1/namespaces/team/pods", nil, as("bob")).Code == http.StatusForbidden
	})

	// The rbac group is served like any other: a Table with upstream's columns.
	var tbl struct {
		ColumnDefinitions []struct{ Name string }
		Rows              []struct{ Cells []any }
	}
	s.Do(t, "GET", rbacAPI+"/namespaces/team/rolebindings", nil, as("alice"),
		framework.Header{"Accept": "application/json;as=Table;v=v1;g=meta.k8s.io"}).Expect(t, http.StatusOK).Into(t, &tbl)
	if len(tbl.ColumnDefinitions) != 6 || tbl.ColumnDefinitions[1].Name != "Role" || len(tbl.Rows) != 1 || tbl.Rows[0].Cells[1] != "ClusterRole/admin" {
		t.Errorf("table %+v", tbl)
	}
}
