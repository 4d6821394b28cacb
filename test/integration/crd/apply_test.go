package crd

import (
	"net/http"
	"testing"

	"platform.io/platform/test/integration/framework"
)

// TestServerSideApply: apply creates and updates a custom object and
// records its manager in managedFields.
func TestServerSideApply(t *testing.T) {
	s := framework.Start(t)
	install(t, s, definition("stable.example.com", "crontabs", "CronTab", "Namespaced"))
	path := "/apis/stable.example.com/v1/namespaces/default/crontabs/a?fieldManager=tester"
	apply := framework.Header{"Content-Type": "application/apply-patch+yaml"}
	body := "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: a\nspec:\n  replicas: 2\n"
	s.Do(t, "PATCH", path, body, apply).Expect(t, http.StatusCreated)
	got := s.Do(t, "PATCH", path, "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: a\nspec:\n  replicas: 3\n", apply).Expect(t, http.StatusOK).Map(t)
	if got["spec"].(map[string]any)["replicas"] != float64(3) {
		t.Errorf("applied spec %v", got["spec"])
	}
	mf, _ := meta(got)["managedFields"].([]any)
	if len(mf) != 1 || mf[0].(map[string]any)["manager"] != "tester" || mf[0].(map[string]any)["operation"] != "Apply" {
		t.Errorf("managedFields %v", mf)
	}
}
