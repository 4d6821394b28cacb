package crd

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"platform.io/platform/test/integration/framework"
)

// TestVersions: two served versions with conversion None share the
// objects, each answered in the version asked for; the preferred version
// is the most stable one; a deprecated version warns; under the Webhook
// strategy with a webhook that cannot be reached, non-storage versions
// answer 500 instead of converting wrongly (conversion_test.go tests a
// working webhook).
func TestVersions(t *testing.T) {
	s := framework.Start(t)
	crd := definition("multi.example.com", "things", "Thing", "Namespaced")
	spec := crd["spec"].(map[string]any)
	v1 := spec["versions"].([]any)[0].(map[string]any)
	beta := map[string]any{"name": "v1beta1", "served": true, "storage": false, "deprecated": true, "schema": v1["schema"]}
	spec["versions"] = []any{beta, v1}
	install(t, s, crd)

	if g := s.Do(t, "GET", "/apis/multi.example.com", nil).Expect(t, http.StatusOK).Map(t); g["preferredVersion"].(map[string]any)["version"] != "v1" {
		t.Errorf("preferred version of %v", g)
	}
	r := s.Do(t, "POST", "/apis/multi.example.com/v1beta1/namespaces/default/things",
		map[string]any{"apiVersion": "multi.example.com/v1beta1", "kind": "Thing", "metadata": map[string]any{"name": "t"}, "spec": map[string]any{"a": 1}}).Expect(t, http.StatusCreated)
	if w := r.Header.Get("Warning"); !strings.Contains(w, "multi.example.com/v1beta1 Thing is deprecated; use multi.example.com/v1 Thing") {
		t.Errorf("warning %q", w)
	}
	got := s.Do(t, "GET", "/apis/multi.example.com/v1/namespaces/default/things/t", nil).Expect(t, http.StatusOK)
	if m := got.Map(t); m["apiVersion"] != "multi.example.com/v1" || m["spec"].(map[string]any)["a"] != float64(1) {
		t.Errorf("read in v1: %s", got.Body)
	}
	if got.Header.Get("Warning") != "" {
		t.Errorf("v1 warns: %q", got.Header.Get("Warning"))
	}
	if m := s.Do(t, "GET", "/apis/multi.example.com/v1beta1/namespaces/default/things/t", nil).Expect(t, http.StatusOK).Map(t); m["apiVersion"] != "multi.example.com/v1beta1" {
		t.Errorf("read in v1beta1: %v", m)
	}

	// The Webhook strategy, nothing listening: the storage version works,
	// the other fails.
	cur := s.Do(t, "GET", crdsPath+"/things.multi.example.com", nil).Expect(t, http.StatusOK).Map(t)
	cur["spec"].(map[string]any)["conversion"] = map[string]any{"strategy": "Webhook", "webhook": map[string]any{
		"conversionReviewVersions": []string{"v1"}, "clientConfig": map[string]any{"url": "https://127.0.0.1:1/convert"}}}
	s.Do(t, "PUT", crdsPath+"/things.multi.example.com", cur).Expect(t, http.StatusOK)
	framework.Eventually(t, 10*time.Second, "v1beta1 refused under the Webhook strategy", func() bool {
		return s.Do(t, "GET", "/apis/multi.example.com/v1beta1/namespaces/default/things/t", nil).Code == http.StatusInternalServerError
	})
	s.Do(t, "GET", "/apis/multi.example.com/v1/namespaces/default/things/t", nil).Expect(t, http.StatusOK)
}
