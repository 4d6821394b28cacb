package podautoscaler

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	autoscalingv2 "platform.io/client/api/autoscaling/v2"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/api/resource"

	"platform.io/platform/test/integration/framework"
)

// widgetCRD is a custom type with the scale subresource, which a test
// stands in for the controller of: it creates the pods the selector in
// the status names.
const widgetCRD = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
 "metadata":{"name":"widgets.autoscale.example.com"},
 "spec":{"group":"autoscale.example.com","scope":"Namespaced","names":{"plural":"widgets","kind":"Widget"},
  "versions":[{"name":"v1","served":true,"storage":true,
   "subresources":{"status":{},"scale":{"specReplicasPath":".spec.replicas","statusReplicasPath":".status.replicas","labelSelectorPath":".status.selector"}},
   "schema":{"openAPIV3Schema":{"type":"object","properties":{
    "spec":{"type":"object","properties":{"replicas":{"type":"integer"}}},
    "status":{"type":"object","properties":{"replicas":{"type":"integer"},"selector":{"type":"string"}}}}}}}]}}`

// TestAutoscaleCustomResource: the autoscaler scales a custom resource
// through its scale subresource, finding the type through discovery: the
// selector comes from the status path the definition names, and the new
// count is written to its spec path.
func TestAutoscaleCustomResource(t *testing.T) {
	e := start(t)
	e.srv.Do(t, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", widgetCRD).Expect(t, http.StatusCreated)
	base := "/apis/autoscale.example.com/v1/namespaces/" + ns + "/widgets"
	framework.Eventually(t, 20*time.Second, "widgets served", func() bool {
		return e.srv.Do(t, "GET", base, nil).Code == http.StatusOK
	})
	e.srv.Do(t, "POST", base, `{"apiVersion":"autoscale.example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"replicas":2}}`).Expect(t, http.StatusCreated)
	e.srv.Do(t, "PATCH", base+"/w/status", `{"status":{"replicas":2,"selector":"app=widget"}}`,
		framework.Header{"Content-Type": "application/merge-patch+json"}).Expect(t, http.StatusOK)
	for i := range 2 {
		p := &corev1.Pod{ObjectMeta: meta.ObjectMeta{Name: fmt.Sprintf("widget-%d", i), Labels: map[string]string{"app": "widget"}},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "widget:1", Resources: corev1.ResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m")}}}}}}
		if _, err := e.set.Pods.Namespace(ns).Create(e.ctx, p, meta.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	target := int32(50)
	e.metrics.cpuMilli.Store(150)
	h := &autoscalingv2.HorizontalPodAutoscaler{
		ObjectMeta: meta.ObjectMeta{Name: "w"},
		Spec: autoscalingv2.HorizontalPodAutoscalerSpec{
			ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{APIVersion: "autoscale.example.com/v1", Kind: "Widget", Name: "w"},
			MaxReplicas:    4,
			Metrics: []autoscalingv2.MetricSpec{{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricSource{
				Name: corev1.ResourceCPU, Target: autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: &target},
			}}},
		},
	}
	if _, err := e.set.HorizontalPodAutoscalers.Namespace(ns).Create(e.ctx, h, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	// 150% of the request against a 50% target on 2 pods wants 6: the
	// maximum, 4, is written to the widget's spec.replicas.
	wait(t, 20*time.Second, func() string {
		w := e.srv.Do(t, "GET", base+"/w", nil).Expect(t, http.StatusOK).Map(t)
		got := e.hpa(t, "w")
		if r := w["spec"].(map[string]any)["replicas"]; r != float64(4) || got.Status.DesiredReplicas != 4 {
			return fmt.Sprintf("widget spec.replicas %v, autoscaler status %+v", r, got.Status)
		}
		return ""
	})
}
