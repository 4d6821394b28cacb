package podautoscaler

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	autoscalingv1 "platform.io/client/api/autoscaling/v1"
	autoscalingv2 "platform.io/client/api/autoscaling/v2"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/api/resource"
	"platform.io/client/informer"
)

type fakeScales struct {
	scale   autoscalingv1.Scale
	getErr  error
	updated []int32
}

func (f *fakeScales) Get(context.Context, string, string, string, string) (*autoscalingv1.Scale, meta.GroupResource, error) {
	if f.getErr != nil {
		return nil, meta.GroupResource{}, f.getErr
	}
	s := f.scale
	return &s, meta.GroupResource{Group: "apps", Resource: "deployments"}, nil
}

func (f *fakeScales) Update(_ context.Context, _, _, _ string, s *autoscalingv1.Scale) error {
	f.updated = append(f.updated, s.Spec.Replicas)
	f.scale.Spec.Replicas = s.Spec.Replicas
	return nil
}

// fakeMetrics answers per resource; a missing resource is an error.
type fakeMetrics map[corev1.ResourceName]map[string]PodUsage

func (f fakeMetrics) PodUsage(_ context.Context, _, _ string, res corev1.ResourceName) (map[string]PodUsage, error) {
	if u, ok := f[res]; ok {
		return u, nil
	}
	return nil, errors.New("the server is currently unable to handle the request")
}

type fakeStatus struct {
	last *autoscalingv2.HorizontalPodAutoscaler
}

func (f *fakeStatus) UpdateStatus(_ context.Context, h *autoscalingv2.HorizontalPodAutoscaler) error {
	f.last = h
	return nil
}

type fakeRecorder struct{ events []string }

func (f *fakeRecorder) Event(_ any, typ, reason, msg string) {
	f.events = append(f.events, typ+" "+reason+": "+msg)
}
func (f *fakeRecorder) Eventf(obj any, typ, reason, format string, args ...any) {
	f.Event(obj, typ, reason, fmt.Sprintf(format, args...))
}
func (f *fakeRecorder) AnnotatedEventf(obj any, _ map[string]string, typ, reason, format string, args ...any) {
	f.Eventf(obj, typ, reason, format, args...)
}

func resourceMetric(res corev1.ResourceName, pct int32) autoscalingv2.MetricSpec {
	return autoscalingv2.MetricSpec{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricSource{
		Name: res, Target: autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: &pct},
	}}
}

func TestReconcile(t *testing.T) {
	withMem := func(p *corev1.Pod) {
		p.Spec.Containers[0].Resources.Requests[corev1.ResourceMemory] = resource.MustParse("100")
	}
	threePods := []*corev1.Pod{mkPod("p0", 1000, withMem), mkPod("p1", 1000, withMem), mkPod("p2", 1000, withMem)}
	tests := []struct {
		name       string
		replicas   int32
		min, max   int32
		metrics    []autoscalingv2.MetricSpec
		source     fakeMetrics
		getErr     error
		wantScale  []int32
		wantCond   map[autoscalingv2.HorizontalPodAutoscalerConditionType]string // "Status/Reason"
		wantEvents []string
	}{
		{name: "scale up", replicas: 3, min: 1, max: 10, metrics: []autoscalingv2.MetricSpec{resourceMetric(corev1.ResourceCPU, 50)},
			source: fakeMetrics{corev1.ResourceCPU: usage(1000, 1000, 1000)}, wantScale: []int32{6},
			wantCond: map[autoscalingv2.HorizontalPodAutoscalerConditionType]string{
				autoscalingv2.AbleToScale: "True/SucceededRescale", autoscalingv2.ScalingActive: "True/ValidMetricFound", autoscalingv2.ScalingLimited: "False/DesiredWithinRange"},
			wantEvents: []string{"Normal SuccessfulRescale: New size: 6; reason: cpu resource utilization (percentage of request) above target"}},
		{name: "metrics unavailable", replicas: 3, min: 1, max: 10, metrics: []autoscalingv2.MetricSpec{resourceMetric(corev1.ResourceCPU, 50)},
			source: fakeMetrics{},
			wantCond: map[autoscalingv2.HorizontalPodAutoscalerConditionType]string{
				autoscalingv2.AbleToScale: "True/SucceededGetScale", autoscalingv2.ScalingActive: "False/FailedGetResourceMetric"},
			wantEvents: []string{
				"Warning FailedGetResourceMetric: failed to get cpu utilization: the server is currently unable to handle the request",
				"Warning FailedComputeMetricsReplicas: invalid metrics (1 invalid out of 1), first error is: failed to get cpu utilization: the server is currently unable to handle the request"}},
		{name: "no scale-down on partial metrics", replicas: 3, min: 1, max: 10,
			metrics:  []autoscalingv2.MetricSpec{resourceMetric(corev1.ResourceCPU, 50), resourceMetric(corev1.ResourceMemory, 50)},
			source:   fakeMetrics{corev1.ResourceCPU: usage(10, 10, 10)},
			wantCond: map[autoscalingv2.HorizontalPodAutoscalerConditionType]string{autoscalingv2.ScalingActive: "False/FailedGetResourceMetric"}},
		{name: "scale up on partial metrics", replicas: 3, min: 1, max: 10,
			metrics: []autoscalingv2.MetricSpec{resourceMetric(corev1.ResourceCPU, 50), resourceMetric(corev1.ResourceMemory, 50)},
			source:  fakeMetrics{corev1.ResourceCPU: usage(1000, 1000, 1000)}, wantScale: []int32{6}},
		{name: "above max without metrics", replicas: 12, min: 1, max: 10, metrics: []autoscalingv2.MetricSpec{resourceMetric(corev1.ResourceCPU, 50)},
			source: fakeMetrics{}, wantScale: []int32{10},
			wantEvents: []string{"Normal SuccessfulRescale: New size: 10; reason: Current number of replicas above Spec.MaxReplicas"}},
		{name: "target at zero", replicas: 0, min: 1, max: 10, metrics: []autoscalingv2.MetricSpec{resourceMetric(corev1.ResourceCPU, 50)},
			source:   fakeMetrics{corev1.ResourceCPU: usage(1000, 1000, 1000)},
			wantCond: map[autoscalingv2.HorizontalPodAutoscalerConditionType]string{autoscalingv2.ScalingActive: "False/ScalingDisabled"}},
		{name: "scale unreadable", replicas: 3, min: 1, max: 10, getErr: errors.New("deployments.apps \"web\" not found"),
			wantCond:   map[autoscalingv2.HorizontalPodAutoscalerConditionType]string{autoscalingv2.AbleToScale: "False/FailedGetScale"},
			wantEvents: []string{"Warning FailedGetScale: deployments.apps \"web\" not found"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hpa := &autoscalingv2.HorizontalPodAutoscaler{
				ObjectMeta: meta.ObjectMeta{Name: "web", Namespace: "ns", Generation: 2},
				Spec: autoscalingv2.HorizontalPodAutoscalerSpec{
					ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "web"},
					MinReplicas:    &tt.min, MaxReplicas: tt.max, Metrics: tt.metrics,
				},
			}
			hpas := informer.NewStore[*autoscalingv2.HorizontalPodAutoscaler]()
			hpas.Add(hpa)
			pods := informer.NewStore[*corev1.Pod]()
			for _, p := range threePods {
				p := *p
				p.Namespace, p.Labels = "ns", map[string]string{"app": "web"}
				pods.Add(&p)
			}
			scales := &fakeScales{scale: autoscalingv1.Scale{ObjectMeta: meta.ObjectMeta{Name: "web"},
				Spec: autoscalingv1.ScaleSpec{Replicas: tt.replicas}, Status: autoscalingv1.ScaleStatus{Replicas: tt.replicas, Selector: "app=web"}}, getErr: tt.getErr}
			st, rec := &fakeStatus{}, &fakeRecorder{}
			r := &reconciler{
				hpas:   informer.NewLister(hpas, meta.GroupResource{Resource: "horizontalpodautoscalers"}),
				pods:   informer.NewLister(pods, meta.GroupResource{Resource: "pods"}),
				scales: scales, metrics: tt.source, status: st, recorder: rec,
				calc:    *calc(),
				history: NewHistory(func() time.Time { return t0 }), syncPeriod: 15 * time.Second, downWindow: 5 * time.Minute,
			}
			res, err := r.Reconcile(t.Context(), "ns/web")
			if err != nil || res.RequeueAfter != 15*time.Second {
				t.Fatalf("Reconcile = %+v, %v", res, err)
			}
			if fmt.Sprint(scales.updated) != fmt.Sprint(tt.wantScale) {
				t.Errorf("scale writes %v, want %v", scales.updated, tt.wantScale)
			}
			if st.last == nil {
				t.Fatal("no status written")
			}
			for typ, want := range tt.wantCond {
				got := "absent"
				for _, c := range st.last.Status.Conditions {
					if c.Type == typ {
						got = string(c.Status) + "/" + c.Reason
					}
				}
				if got != want {
					t.Errorf("%s = %s, want %s", typ, got, want)
				}
			}
			if tt.wantEvents != nil && fmt.Sprintf("%q", rec.events) != fmt.Sprintf("%q", tt.wantEvents) {
				t.Errorf("events %q, want %q", rec.events, tt.wantEvents)
			}
			if hpa.Status.Conditions != nil {
				t.Error("the informer's object was changed")
			}
		})
	}
}
