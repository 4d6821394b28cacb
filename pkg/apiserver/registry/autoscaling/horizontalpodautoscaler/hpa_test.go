package horizontalpodautoscaler

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	autoscalingv1 "platform.io/client/api/autoscaling/v1"
	autoscalingv2 "platform.io/client/api/autoscaling/v2"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/api/resource"

	"platform.io/platform/pkg/apiserver/validation/field"
)

// sample reads the shared protobuf sample of a v2 autoscaler, which sets
// every kind of metric, a behavior and conditions.
func sample(t *testing.T) *autoscalingv2.HorizontalPodAutoscaler {
	t.Helper()
	b, err := os.ReadFile("../../../../../staging/codec/protobuf/testdata/objects/autoscaling/v2/HorizontalPodAutoscaler.json")
	if err != nil {
		t.Fatal(err)
	}
	h := &autoscalingv2.HorizontalPodAutoscaler{}
	if err := json.Unmarshal(b, h); err != nil {
		t.Fatal(err)
	}
	return h
}

func TestRoundTripThroughV1LosesNothing(t *testing.T) {
	h := sample(t)
	h.Annotations = map[string]string{"team": "shop"}
	v1, err := FromV2(h)
	if err != nil {
		t.Fatal(err)
	}
	if got := *v1.Spec.TargetCPUUtilizationPercentage; got != 60 {
		t.Errorf("targetCPUUtilizationPercentage = %d, want 60", got)
	}
	if got := *v1.Status.CurrentCPUUtilizationPercentage; got != 90 {
		t.Errorf("currentCPUUtilizationPercentage = %d, want 90", got)
	}
	for _, k := range []string{autoscalingv1.MetricsAnnotation, autoscalingv1.BehaviorAnnotation, autoscalingv1.ConditionsAnnotation, autoscalingv1.CurrentMetricsAnnotation} {
		if v1.Annotations[k] == "" {
			t.Errorf("annotation %s missing", k)
		}
	}
	// Through the wire format, as a client would see it.
	b, err := json.Marshal(v1)
	if err != nil {
		t.Fatal(err)
	}
	var wire autoscalingv1.HorizontalPodAutoscaler
	if err := json.Unmarshal(b, &wire); err != nil {
		t.Fatal(err)
	}
	back, err := ToV2(&wire)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(h, back, cmp.Comparer(func(a, b resource.Quantity) bool { return a.Cmp(b) == 0 })); d != "" {
		t.Errorf("v2 -> v1 -> v2 changed (-want +got):\n%s", d)
	}
	if h.Annotations[autoscalingv1.MetricsAnnotation] != "" {
		t.Error("FromV2 changed its input's annotations")
	}
}

func TestV1EditOfCPUTargetWins(t *testing.T) {
	h := sample(t)
	v1, err := FromV2(h)
	if err != nil {
		t.Fatal(err)
	}
	v1.Spec.TargetCPUUtilizationPercentage = ptr[int32](35)
	back, err := ToV2(v1)
	if err != nil {
		t.Fatal(err)
	}
	if got := *back.Spec.Metrics[cpuIndex(back.Spec.Metrics)].Resource.Target.AverageUtilization; got != 35 {
		t.Errorf("cpu target = %d, want 35", got)
	}
	if len(back.Spec.Metrics) != len(h.Spec.Metrics) {
		t.Errorf("metrics = %d, want %d", len(back.Spec.Metrics), len(h.Spec.Metrics))
	}
	v1.Spec.TargetCPUUtilizationPercentage = nil
	if back, _ = ToV2(v1); cpuIndex(back.Spec.Metrics) >= 0 {
		t.Error("clearing the v1 target kept the cpu metric")
	}
}

func TestPlainV1NeedsNoAnnotations(t *testing.T) {
	v1 := &autoscalingv1.HorizontalPodAutoscaler{
		ObjectMeta: meta.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: autoscalingv1.HorizontalPodAutoscalerSpec{
			ScaleTargetRef: autoscalingv1.CrossVersionObjectReference{Kind: "Deployment", Name: "web", APIVersion: "apps/v1"},
			MaxReplicas:    10, TargetCPUUtilizationPercentage: ptr[int32](50),
		},
	}
	defaultV1(v1)
	if *v1.Spec.MinReplicas != 1 || *v1.Spec.TargetCPUUtilizationPercentage != 50 || len(v1.Annotations) != 0 {
		t.Errorf("defaulted v1 = %+v", v1)
	}
	v2, err := ToV2(v1)
	if err != nil {
		t.Fatal(err)
	}
	if len(v2.Spec.Metrics) != 1 || *v2.Spec.Metrics[0].Resource.Target.AverageUtilization != 50 || v2.Annotations != nil {
		t.Errorf("v2 = %+v", v2.Spec)
	}
	v1.Spec.TargetCPUUtilizationPercentage = nil
	defaultV1(v1)
	if *v1.Spec.TargetCPUUtilizationPercentage != DefaultCPUUtilization {
		t.Errorf("unset target defaulted to %v", v1.Spec.TargetCPUUtilizationPercentage)
	}
}

func TestBadAnnotationIsInvalid(t *testing.T) {
	v1 := &autoscalingv1.HorizontalPodAutoscaler{
		ObjectMeta: meta.ObjectMeta{Name: "web", Annotations: map[string]string{autoscalingv1.BehaviorAnnotation: "{"}},
		Spec: autoscalingv1.HorizontalPodAutoscalerSpec{
			ScaleTargetRef: autoscalingv1.CrossVersionObjectReference{Kind: "Deployment", Name: "web"}, MaxReplicas: 3,
		},
	}
	errs := validateV1(v1)
	if len(errs) != 1 || errs[0].Field != "metadata.annotations" {
		t.Errorf("errors = %v", errs)
	}
}

func TestDefault(t *testing.T) {
	s := autoscalingv2.HorizontalPodAutoscalerSpec{
		Behavior: &autoscalingv2.HorizontalPodAutoscalerBehavior{
			ScaleDown: &autoscalingv2.HPAScalingRules{StabilizationWindowSeconds: ptr[int32](60)},
		},
	}
	Default(&s)
	want := autoscalingv2.HorizontalPodAutoscalerSpec{
		MinReplicas: ptr[int32](1),
		Metrics: []autoscalingv2.MetricSpec{{Type: "Resource", Resource: &autoscalingv2.ResourceMetricSource{
			Name: corev1.ResourceCPU, Target: autoscalingv2.MetricTarget{Type: "Utilization", AverageUtilization: ptr[int32](80)},
		}}},
		Behavior: &autoscalingv2.HorizontalPodAutoscalerBehavior{
			ScaleUp: &autoscalingv2.HPAScalingRules{
				StabilizationWindowSeconds: ptr[int32](0), SelectPolicy: ptr(autoscalingv2.MaxChangePolicySelect),
				Policies: []autoscalingv2.HPAScalingPolicy{{Type: "Pods", Value: 4, PeriodSeconds: 15}, {Type: "Percent", Value: 100, PeriodSeconds: 15}},
			},
			ScaleDown: &autoscalingv2.HPAScalingRules{
				StabilizationWindowSeconds: ptr[int32](60), SelectPolicy: ptr(autoscalingv2.MaxChangePolicySelect),
				Policies: []autoscalingv2.HPAScalingPolicy{{Type: "Percent", Value: 100, PeriodSeconds: 15}},
			},
		},
	}
	if d := cmp.Diff(want, s); d != "" {
		t.Errorf("defaulted (-want +got):\n%s", d)
	}
	var none autoscalingv2.HorizontalPodAutoscalerSpec
	if Default(&none); none.Behavior != nil {
		t.Error("a nil behavior was defaulted")
	}
}

func TestValidateSpec(t *testing.T) {
	valid := func() *autoscalingv2.HorizontalPodAutoscalerSpec {
		s := &autoscalingv2.HorizontalPodAutoscalerSpec{
			ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{Kind: "Deployment", Name: "web", APIVersion: "apps/v1"},
			MaxReplicas:    5,
			Behavior:       &autoscalingv2.HorizontalPodAutoscalerBehavior{},
		}
		Default(s)
		return s
	}
	q := resource.MustParse("100m")
	zero := resource.MustParse("0")
	tests := []struct {
		name   string
		mutate func(s *autoscalingv2.HorizontalPodAutoscalerSpec)
		want   string // "field:type" of each error, sorted as reported
	}{
		{"valid", func(*autoscalingv2.HorizontalPodAutoscalerSpec) {}, ""},
		{"no kind", func(s *autoscalingv2.HorizontalPodAutoscalerSpec) { s.ScaleTargetRef.Kind = "" }, "spec.scaleTargetRef.kind:FieldValueRequired"},
		{"bad name", func(s *autoscalingv2.HorizontalPodAutoscalerSpec) { s.ScaleTargetRef.Name = "a/b" }, "spec.scaleTargetRef.name:FieldValueInvalid"},
		{"min zero", func(s *autoscalingv2.HorizontalPodAutoscalerSpec) { s.MinReplicas = ptr[int32](0) }, "spec.minReplicas:FieldValueInvalid"},
		{"max below min", func(s *autoscalingv2.HorizontalPodAutoscalerSpec) { s.MinReplicas = ptr[int32](6) }, "spec.maxReplicas:FieldValueInvalid"},
		{"max zero", func(s *autoscalingv2.HorizontalPodAutoscalerSpec) { s.MaxReplicas, s.MinReplicas = 0, nil }, "spec.maxReplicas:FieldValueInvalid"},
		{"unknown metric type", func(s *autoscalingv2.HorizontalPodAutoscalerSpec) { s.Metrics[0].Type = "Magic" }, "spec.metrics[0].type:FieldValueNotSupported,spec.metrics[0]:FieldValueForbidden"},
		{"source missing", func(s *autoscalingv2.HorizontalPodAutoscalerSpec) { s.Metrics[0].Type = "Pods" }, "spec.metrics[0].pods:FieldValueRequired,spec.metrics[0]:FieldValueForbidden"},
		{"utilization zero", func(s *autoscalingv2.HorizontalPodAutoscalerSpec) {
			s.Metrics[0].Resource.Target.AverageUtilization = ptr[int32](0)
		}, "spec.metrics[0].resource.target.averageUtilization:FieldValueInvalid"},
		{"both targets", func(s *autoscalingv2.HorizontalPodAutoscalerSpec) { s.Metrics[0].Resource.Target.AverageValue = &q },
			"spec.metrics[0].resource.target.averageValue:FieldValueForbidden"},
		{"average value not positive", func(s *autoscalingv2.HorizontalPodAutoscalerSpec) {
			s.Metrics[0].Resource.Target = autoscalingv2.MetricTarget{Type: "AverageValue", AverageValue: &zero}
		}, "spec.metrics[0].resource.target.averageValue:FieldValueInvalid"},
		{"no resource target", func(s *autoscalingv2.HorizontalPodAutoscalerSpec) {
			s.Metrics[0].Resource.Target = autoscalingv2.MetricTarget{Type: "Utilization"}
		}, "spec.metrics[0].resource.target.averageUtilization:FieldValueRequired"},
		{"window too long", func(s *autoscalingv2.HorizontalPodAutoscalerSpec) {
			s.Behavior.ScaleDown.StabilizationWindowSeconds = ptr[int32](3601)
		}, "spec.behavior.scaleDown.stabilizationWindowSeconds:FieldValueInvalid"},
		{"bad select", func(s *autoscalingv2.HorizontalPodAutoscalerSpec) {
			s.Behavior.ScaleUp.SelectPolicy = ptr[autoscalingv2.ScalingPolicySelect]("Sometimes")
		}, "spec.behavior.scaleUp.selectPolicy:FieldValueNotSupported"},
		{"no policies", func(s *autoscalingv2.HorizontalPodAutoscalerSpec) {
			s.Behavior.ScaleUp.Policies = []autoscalingv2.HPAScalingPolicy{}
		},
			"spec.behavior.scaleUp.policies:FieldValueRequired"},
		{"bad policy", func(s *autoscalingv2.HorizontalPodAutoscalerSpec) {
			s.Behavior.ScaleDown.Policies = []autoscalingv2.HPAScalingPolicy{{Type: "Nodes", Value: 0, PeriodSeconds: 1801}}
		}, "spec.behavior.scaleDown.policies[0].type:FieldValueNotSupported,spec.behavior.scaleDown.policies[0].value:FieldValueInvalid,spec.behavior.scaleDown.policies[0].periodSeconds:FieldValueInvalid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := valid()
			tt.mutate(s)
			if got := describe(ValidateSpec(s)); got != tt.want {
				t.Errorf("errors = %q, want %q", got, tt.want)
			}
		})
	}
}

func describe(errs field.ErrorList) string {
	var parts []string
	for _, e := range errs {
		parts = append(parts, e.Field+":"+string(e.Type))
	}
	return strings.Join(parts, ",")
}

func TestTableRow(t *testing.T) {
	h := sample(t)
	row := tableColumns.Row(h)
	want := []any{"web", "Deployment/web", "cpu: 90%/60%, memory: <unknown>/512Mi + 4 more...", "2", int64(20), int64(4)}
	if d := cmp.Diff(want, row[:6]); d != "" {
		t.Errorf("v2 row (-want +got):\n%s", d)
	}
	v1, err := FromV2(h)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, tableColumns.Row(v1)[:6]); d != "" {
		t.Errorf("v1 row (-want +got):\n%s", d)
	}
	plain := &autoscalingv2.HorizontalPodAutoscaler{Spec: autoscalingv2.HorizontalPodAutoscalerSpec{
		ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{Kind: "Deployment", Name: "api"}, MaxReplicas: 3,
	}}
	if got := tableColumns.Row(plain)[2:4]; got[0] != "<none>" || got[1] != "<unset>" {
		t.Errorf("unset row = %v", got)
	}
}
