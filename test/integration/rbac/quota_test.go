package rbac

import (
	"net/http"
	"strings"
	"testing"
)

// TestQuotaRights: as upstream, a namespace admin reads the quotas and
// limit ranges of the namespace but cannot create, raise or delete them;
// a user without any binding cannot even read them; only a cluster
// administrator writes them.
func TestQuotaRights(t *testing.T) {
	s := start(t)
	s.Do(t, "POST", "/api/v1/namespaces", map[string]any{"metadata": map[string]any{"name": "capped"}}, as("admin")).Expect(t, http.StatusCreated)
	q := map[string]any{"metadata": map[string]any{"name": "q"}, "spec": map[string]any{"hard": map[string]string{"pods": "2"}}}
	s.Do(t, "POST", "/api/v1/namespaces/capped/resourcequotas", q, as("admin")).Expect(t, http.StatusCreated)
	lr := map[string]any{"metadata": map[string]any{"name": "lr"}, "spec": map[string]any{"limits": []any{
		map[string]any{"type": "Container", "max": map[string]string{"cpu": "1"}}}}}
	s.Do(t, "POST", "/api/v1/namespaces/capped/limitranges", lr, as("admin")).Expect(t, http.StatusCreated)

	st := s.Do(t, "GET", "/api/v1/namespaces/capped/resourcequotas", nil, as("alice")).ExpectStatus(t, http.StatusForbidden, "Forbidden")
	if msg, _ := st["message"].(string); !strings.Contains(msg, `User "alice" cannot list resource "resourcequotas"`) {
		t.Errorf("message %q", msg)
	}
	s.Do(t, "POST", "/apis/rbac.authorization.platform.io/v1/namespaces/capped/rolebindings",
		binding("capped", "alice-admin", "ClusterRole", "admin", userSubject("alice")), as("admin")).Expect(t, http.StatusCreated)
	waitFor(t, "alice's binding", func() bool {
		return s.Do(t, "GET", "/api/v1/namespaces/capped/resourcequotas/q", nil, as("alice")).Code == http.StatusOK
	})
	s.Do(t, "GET", "/api/v1/namespaces/capped/limitranges/lr", nil, as("alice")).Expect(t, http.StatusOK)
	s.Do(t, "GET", "/api/v1/namespaces/capped/resourcequotas/q/status", nil, as("alice")).Expect(t, http.StatusOK)

	raised := map[string]any{"metadata": map[string]any{"name": "q2"}, "spec": map[string]any{"hard": map[string]string{"pods": "100"}}}
	s.Do(t, "POST", "/api/v1/namespaces/capped/resourcequotas", raised, as("alice")).ExpectStatus(t, http.StatusForbidden, "Forbidden")
	patch := `{"spec":{"hard":{"pods":"100"}}}`
	for _, path := range []string{"/api/v1/namespaces/capped/resourcequotas/q", "/api/v1/namespaces/capped/resourcequotas/q/status"} {
		st := s.Do(t, "PATCH", path, patch, as("alice"), map[string]string{"Content-Type": "application/merge-patch+json"})
		if st.Code != http.StatusForbidden {
			t.Errorf("PATCH %s as a namespace admin: %d, want 403", path, st.Code)
		}
	}
	s.Do(t, "DELETE", "/api/v1/namespaces/capped/resourcequotas/q", nil, as("alice")).ExpectStatus(t, http.StatusForbidden, "Forbidden")
	s.Do(t, "DELETE", "/api/v1/namespaces/capped/limitranges/lr", nil, as("alice")).ExpectStatus(t, http.StatusForbidden, "Forbidden")
	s.Do(t, "PATCH", "/api/v1/namespaces/capped/resourcequotas/q", patch, as("admin"), map[string]string{"Content-Type": "application/merge-patch+json"}).Expect(t, http.StatusOK)
}
