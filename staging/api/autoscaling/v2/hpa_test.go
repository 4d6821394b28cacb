package v2

import (
	"testing"

	"platform.io/client/api/apitest"
	"platform.io/client/api/meta"
)

var _ meta.Object = &HorizontalPodAutoscaler{}

func TestTags(t *testing.T) {
	apitest.CheckTags(t, HorizontalPodAutoscaler{}, HorizontalPodAutoscalerList{})
}

func TestRoundTrip(t *testing.T) {
	h := apitest.RoundTripJSON[HorizontalPodAutoscaler](t, `{
		"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
		"metadata": {"name": "web", "namespace": "default"},
		"spec": {
			"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"},
			"minReplicas": 1, "maxReplicas": 10,
			"metrics": [{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 50}}}],
			"behavior": {"scaleDown": {"stabilizationWindowSeconds": 60, "selectPolicy": "Min", "policies": [{"type": "Pods", "value": 1, "periodSeconds": 30}]}}
		},
		"status": {"currentReplicas": 2, "desiredReplicas": 3,
			"conditions": [{"type": "ScalingActive", "status": "True", "reason": "ValidMetricFound"}]}
	}`)
	if *h.Spec.Metrics[0].Resource.Target.AverageUtilization != 50 || *h.Spec.Behavior.ScaleDown.SelectPolicy != MinChangePolicySelect ||
		h.Status.Conditions[0].Type != ScalingActive || h.Spec.ScaleTargetRef.Kind != "Deployment" {
		t.Errorf("decoded %+v", h)
	}
}
