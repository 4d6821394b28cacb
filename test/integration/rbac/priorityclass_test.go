package rbac

import (
	"net/http"
	"testing"
)

// TestPriorityClassesNeedClusterAdmin: as upstream, creating a priority
// class is for cluster-admin only. A user with no binding is refused, and
// so is one bound to edit across the cluster; the refusal names the
// resource under the group the request used.
func TestPriorityClassesNeedClusterAdmin(t *testing.T) {
	s := start(t)
	pc := func(name string) map[string]any {
		return map[string]any{"apiVersion": "scheduling.platform.io/v1", "kind": "PriorityClass", "metadata": map[string]any{"name": name}, "value": 1000}
	}
	const api = "/apis/scheduling.platform.io/v1/priorityclasses"
	st := s.Do(t, "POST", api, pc("high"), as("alice")).ExpectStatus(t, http.StatusForbidden, "Forbidden")
	if want := `priorityclasses.scheduling.platform.io is forbidden: User "alice" cannot create resource "priorityclasses" in API group "scheduling.platform.io" at the cluster scope`; st["message"] != want {
		t.Errorf("403 message %q, want %q", st["message"], want)
	}
	s.Do(t, "POST", "/apis/scheduling.k8s.io/v1/priorityclasses", pc("high"), as("alice")).ExpectStatus(t, http.StatusForbidden, "Forbidden")

	s.Do(t, "POST", rbacAPI+"/clusterrolebindings", map[string]any{
		"metadata": map[string]any{"name": "alice-edit"},
		"roleRef":  map[string]any{"apiGroup": "rbac.authorization.platform.io", "kind": "ClusterRole", "name": "edit"},
		"subjects": []map[string]string{userSubject("alice")},
	}, as("admin")).Expect(t, http.StatusCreated)
	waitFor(t, "alice's edit binding", func() bool {
		return s.Do(t, "GET", "/api/v1/namespaces/default/configmaps", nil, as("alice")).Code == http.StatusOK
	})
	s.Do(t, "POST", api, pc("high"), as("alice")).ExpectStatus(t, http.StatusForbidden, "Forbidden")
	s.Do(t, "GET", api, nil, as("alice")).ExpectStatus(t, http.StatusForbidden, "Forbidden")

	s.Do(t, "POST", api, pc("high"), as("admin")).Expect(t, http.StatusCreated)
	s.Do(t, "GET", api+"/high", nil, as("admin")).Expect(t, http.StatusOK)
}
