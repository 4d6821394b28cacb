package v1

import (
	"testing"

	"platform.io/client/api/apitest"
)

func TestTags(t *testing.T) {
	apitest.CheckTags(t, APIService{}, APIServiceList{})
}

const metricsService = `{
  "apiVersion": "apiregistration.platform.io/v1",
  "kind": "APIService",
  "metadata": {"name": "v1beta1.metrics.platform.io"},
  "spec": {"service": {"namespace": "platform-system", "name": "metrics-server", "port": 8443},
    "group": "metrics.platform.io", "version": "v1beta1", "caBundle": "Y2E=",
    "groupPriorityMinimum": 100, "versionPriority": 100},
  "status": {"conditions": [{"type": "Available", "status": "False", "reason": "MissingEndpoints", "message": "no endpoints"}]}
}`

func TestAPIServiceRoundTrip(t *testing.T) {
	s := apitest.RoundTripJSON[APIService](t, metricsService)
	if s.Spec.Service == nil || *s.Spec.Service.Port != 8443 || string(s.Spec.CABundle) != "ca" || s.Spec.GroupPriorityMinimum != 100 {
		t.Errorf("decoded %+v", s.Spec)
	}
	if s.IsAvailable() || s.Condition(Available).Reason != "MissingEndpoints" {
		t.Errorf("conditions %+v", s.Status.Conditions)
	}
	if NameFor(s.Spec.Group, s.Spec.Version) != s.Name {
		t.Errorf("NameFor = %q", NameFor(s.Spec.Group, s.Spec.Version))
	}
}
