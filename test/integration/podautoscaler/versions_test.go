package podautoscaler

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"platform.io/platform/test/integration/framework"
)

const v2HPA = `{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"api"},
"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"api"},"maxReplicas":8,
"metrics":[{"type":"Resource","resource":{"name":"memory","target":{"type":"AverageValue","averageValue":"256Mi"}}},
{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":70}}}],
"behavior":{"scaleDown":{"stabilizationWindowSeconds":60,"policies":[{"type":"Pods","value":1,"periodSeconds":30}]}}}}`

// TestVersions: one stored object, served in both versions; a v1 update
// (read, change the CPU target, write back) keeps the v2-only fields, and
// invalid specs get 422 in either version.
func TestVersions(t *testing.T) {
	s := framework.Start(t)
	const v2, v1 = "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers", "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers"
	created := s.Do(t, "POST", v2, v2HPA).Expect(t, http.StatusCreated).Map(t)
	behavior := created["spec"].(map[string]any)["behavior"].(map[string]any)
	if up := behavior["scaleUp"].(map[string]any); up["selectPolicy"] != "Max" || len(up["policies"].([]any)) != 2 {
		t.Errorf("scaleUp not defaulted: %v", up)
	}

	var old map[string]any
	s.Do(t, "GET", v1+"/api", nil).Expect(t, http.StatusOK).Into(t, &old)
	old["spec"].(map[string]any)["targetCPUUtilizationPercentage"] = 40
	s.Do(t, "PUT", v1+"/api", old).Expect(t, http.StatusOK)

	got := s.Do(t, "GET", v2+"/api", nil).Expect(t, http.StatusOK).Map(t)
	spec := got["spec"].(map[string]any)
	metrics := spec["metrics"].([]any)
	if len(metrics) != 2 || !strings.Contains(asJSON(t, metrics), `"averageUtilization":40`) ||
		!strings.Contains(asJSON(t, metrics), `"averageValue":"256Mi"`) {
		t.Errorf("metrics after a v1 update: %v", metrics)
	}
	if spec["behavior"].(map[string]any)["scaleDown"].(map[string]any)["stabilizationWindowSeconds"] != float64(60) {
		t.Errorf("behavior after a v1 update: %v", spec["behavior"])
	}
	if a, _ := got["metadata"].(map[string]any)["annotations"].(map[string]any); len(a) != 0 {
		t.Errorf("v1 annotations leaked into v2: %v", a)
	}

	for _, tc := range []struct{ path, body, field string }{
		{v2, `{"metadata":{"name":"bad"},"spec":{"scaleTargetRef":{"kind":"Deployment","name":"x"},"minReplicas":3,"maxReplicas":2}}`, "spec.maxReplicas"},
		{v1, `{"metadata":{"name":"bad"},"spec":{"scaleTargetRef":{"kind":"Deployment","name":"x"},"minReplicas":0,"maxReplicas":2}}`, "spec.minReplicas"},
		{v2, `{"metadata":{"name":"bad"},"spec":{"scaleTargetRef":{"kind":"Deployment","name":"x"},"maxReplicas":2,"behavior":{"scaleUp":{"policies":[{"type":"Pods","value":1,"periodSeconds":1801}]}}}}`, "spec.behavior.scaleUp.policies[0].periodSeconds"},
	} {
		st := s.Do(t, "POST", tc.path, tc.body).ExpectStatus(t, http.StatusUnprocessableEntity, "Invalid")
		if !strings.Contains(asJSON(t, st), tc.field) {
			t.Errorf("%s: status %v does not name %s", tc.body, st, tc.field)
		}
	}
}

func asJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
