package podautoscaler

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	appsv1 "platform.io/client/api/apps/v1"
	autoscalingv2 "platform.io/client/api/autoscaling/v2"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	metricsv1beta1 "platform.io/client/api/metrics/v1beta1"
	"platform.io/client/api/resource"
	"platform.io/client/client"
	"platform.io/client/rest"

	"platform.io/platform/pkg/controller"
	"platform.io/platform/pkg/controller/deployment"
	"platform.io/platform/pkg/controller/podautoscaler"
	"platform.io/platform/pkg/controller/replicaset"
	"platform.io/platform/test/integration/framework"
)

// metricsServer serves the resource metrics API's pod list for a
// namespace: every pod the selector matches on the API server uses
// cpuMilli millicores. With down set it answers 503, as an API server
// does when the metrics server behind it is gone.
type metricsServer struct {
	set      *client.Set
	cpuMilli atomic.Int64
	down     atomic.Bool
	requests atomic.Int64
}

func (m *metricsServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	m.requests.Add(1)
	rest, ok := strings.CutPrefix(r.URL.Path, "/apis/metrics.platform.io/v1beta1/namespaces/")
	ns, tail, _ := strings.Cut(rest, "/")
	if !ok || tail != "pods" || r.Method != http.MethodGet {
		http.NotFound(w, r)
		return
	}
	if m.down.Load() {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprint(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","message":"the server is currently unable to handle the request","reason":"ServiceUnavailable","code":503}`)
		return
	}
	pods, err := m.set.Pods.Namespace(ns).List(r.Context(), meta.ListOptions{LabelSelector: r.URL.Query().Get("labelSelector")})
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	list := metricsv1beta1.PodMetricsList{TypeMeta: meta.TypeMeta{APIVersion: "metrics.platform.io/v1beta1", Kind: "PodMetricsList"}}
	now := time.Now()
	for _, p := range pods.Items {
		if p.Status.Phase != corev1.PodRunning {
			continue
		}
		list.Items = append(list.Items, metricsv1beta1.PodMetrics{
			ObjectMeta: meta.ObjectMeta{Name: p.Name, Namespace: ns},
			Timestamp:  meta.Time{Time: now}, Window: meta.Duration{Duration: 15 * time.Second},
			Containers: []metricsv1beta1.ContainerMetrics{{Name: "app", Usage: corev1.ResourceList{
				corev1.ResourceCPU: *resource.NewMilliQuantity(m.cpuMilli.Load(), resource.DecimalSI),
			}}},
		})
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(&list)
}

type env struct {
	srv     *framework.Server
	set     *client.Set
	ctx     context.Context
	metrics *metricsServer
}

const (
	ns         = "default"
	syncPeriod = 2 * time.Second
	downWindow = 6 * time.Second
)

// start runs an API server, the deployment and replicaset loops, and the
// autoscaler reading usage from a test metrics server, plus a stand-in for
// the node agents that marks every new pod running and ready.
func start(t *testing.T) *env {
	t.Helper()
	s := framework.Start(t)
	d := s.Deps(t, "controller-manager")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	var wg sync.WaitGroup
	t.Cleanup(func() {
		cancel()
		wg.Wait()
	})
	c := controller.Context{Deps: d}
	run := func(name string, r interface{ Run(context.Context) error }) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := r.Run(ctx); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}()
	}
	for _, desc := range []controller.Descriptor{deployment.Descriptor(), replicaset.Descriptor()} {
		r, err := desc.New(c, desc.NewOptions())
		if err != nil {
			t.Fatal(err)
		}
		run(desc.Name, r)
	}
	ms := &metricsServer{set: client.NewSet(s.RESTClient(t))}
	hs := httptest.NewServer(ms)
	t.Cleanup(hs.Close)
	mrc, err := rest.NewClient(&rest.Config{Host: hs.URL, QPS: -1, ContentType: rest.ContentTypeJSON})
	if err != nil {
		t.Fatal(err)
	}
	opts := podautoscaler.NewOptions()
	opts.SyncPeriod = syncPeriod
	opts.DownscaleStabilization = time.Hour // the autoscalers below set their own window
	hpa, err := podautoscaler.New(c, opts, podautoscaler.ResourceMetrics{REST: mrc}, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	run("hpa", hpa)
	d.Informers.Start(ctx)
	if !d.Informers.WaitForCacheSync(ctx) {
		t.Fatal("informers did not sync")
	}
	e := &env{srv: s, set: client.NewSet(s.RESTClient(t)), ctx: ctx, metrics: ms}
	wg.Add(1)
	go func() {
		defer wg.Done()
		e.runNodes(ctx)
	}()
	return e
}

// runNodes marks pending pods running and ready, long since started (past
// the CPU initialization period), as node agents would.
func (e *env) runNodes(ctx context.Context) {
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		l, err := e.set.Pods.Namespace(ns).List(ctx, meta.ListOptions{})
		if err != nil {
			continue
		}
		for _, p := range l.Items {
			if p.Status.Phase == corev1.PodRunning || p.DeletionTimestamp != nil {
				continue
			}
			started := meta.NewTime(time.Now().Add(-time.Hour))
			p.Status.Phase = corev1.PodRunning
			p.Status.StartTime = &started
			p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: started}}
			_, _ = e.set.Pods.Namespace(ns).UpdateStatus(ctx, &p, meta.WriteOptions{})
		}
	}
}

func (e *env) replicas(t *testing.T, name string) int32 {
	t.Helper()
	d, err := e.set.Deployments.Namespace(ns).Get(e.ctx, name, meta.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return *d.Spec.Replicas
}

func (e *env) hpa(t *testing.T, name string) *autoscalingv2.HorizontalPodAutoscaler {
	t.Helper()
	h, err := e.set.HorizontalPodAutoscalers.Namespace(ns).Get(e.ctx, name, meta.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func condition(h *autoscalingv2.HorizontalPodAutoscaler, typ autoscalingv2.HorizontalPodAutoscalerConditionType) autoscalingv2.HorizontalPodAutoscalerCondition {
	for _, c := range h.Status.Conditions {
		if c.Type == typ {
			return c
		}
	}
	return autoscalingv2.HorizontalPodAutoscalerCondition{}
}

func cpuPercent(h *autoscalingv2.HorizontalPodAutoscaler) int32 {
	for _, m := range h.Status.CurrentMetrics {
		if m.Resource != nil && m.Resource.Current.AverageUtilization != nil {
			return *m.Resource.Current.AverageUtilization
		}
	}
	return -1
}

// wait polls cond until it returns "" or within passes; it returns how
// long that took.
func wait(t *testing.T, within time.Duration, cond func() string) time.Duration {
	t.Helper()
	start := time.Now()
	msg, done := "", false
	defer func() {
		if !done {
			t.Logf("last check: %s", msg)
		}
	}()
	framework.Eventually(t, within, "condition", func() bool {
		msg = cond()
		return msg == ""
	})
	done = true
	return time.Since(start)
}

func webDeployment(n int32) *appsv1.Deployment {
	l := map[string]string{"app": "web"}
	d := &appsv1.Deployment{}
	d.Name = "web"
	d.Spec.Replicas = &n
	d.Spec.Selector = &meta.LabelSelector{MatchLabels: l}
	d.Spec.Template.Labels = l
	d.Spec.Template.Spec.Containers = []corev1.Container{{Name: "app", Image: "web:1", Resources: corev1.ResourceRequirements{
		Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m")},
	}}}
	return d
}

func TestAutoscaleDeployment(t *testing.T) {
	e := start(t)
	if _, err := e.set.Deployments.Namespace(ns).Create(e.ctx, webDeployment(2), meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	window := int32(downWindow / time.Second)
	minR, target := int32(2), int32(50)
	h := &autoscalingv2.HorizontalPodAutoscaler{
		ObjectMeta: meta.ObjectMeta{Name: "web"},
		Spec: autoscalingv2.HorizontalPodAutoscalerSpec{
			ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "web"},
			MinReplicas:    &minR, MaxReplicas: 5,
			Metrics: []autoscalingv2.MetricSpec{{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricSource{
				Name: corev1.ResourceCPU, Target: autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: &target},
			}}},
			Behavior: &autoscalingv2.HorizontalPodAutoscalerBehavior{ScaleDown: &autoscalingv2.HPAScalingRules{StabilizationWindowSeconds: &window}},
		},
	}

	// The metrics API is down: no scaling, and the status says why.
	e.metrics.down.Store(true)
	e.metrics.cpuMilli.Store(54)
	if _, err := e.set.HorizontalPodAutoscalers.Namespace(ns).Create(e.ctx, h, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	wait(t, 10*time.Second, func() string {
		c := condition(e.hpa(t, "web"), autoscalingv2.ScalingActive)
		if c.Status != corev1.ConditionFalse || c.Reason != "FailedGetResourceMetric" {
			return fmt.Sprintf("ScalingActive %+v", c)
		}
		return ""
	})
	if n := e.replicas(t, "web"); n != 2 {
		t.Fatalf("scaled to %d with no metrics", n)
	}

	// 54% against a 50% target is inside the 0.1 tolerance: nothing moves
	// for several sync periods.
	e.metrics.down.Store(false)
	wait(t, 10*time.Second, func() string {
		got := e.hpa(t, "web")
		if c := condition(got, autoscalingv2.ScalingActive); c.Status != corev1.ConditionTrue || cpuPercent(got) != 54 {
			return fmt.Sprintf("ScalingActive %+v, cpu %d%%", c, cpuPercent(got))
		}
		return ""
	})
	seen := e.metrics.requests.Load()
	wait(t, 20*time.Second, func() string {
		if e.metrics.requests.Load() < seen+3 {
			return "fewer than 3 more evaluations"
		}
		return ""
	})
	if n := e.replicas(t, "web"); n != 2 {
		t.Fatalf("scaled to %d inside the tolerance", n)
	}
	if got := e.hpa(t, "web"); got.Status.LastScaleTime != nil || got.Status.DesiredReplicas != 2 {
		t.Fatalf("status after holding: %+v", got.Status)
	}

	// Raised to 150%: a scale-up within two sync periods, to the max of 5
	// (3x would be 6), with ScalingLimited saying so.
	e.metrics.cpuMilli.Store(150)
	took := wait(t, 10*time.Second, func() string {
		if n := e.replicas(t, "web"); n == 2 {
			return "not scaled up"
		}
		return ""
	})
	t.Logf("scaled up %v after the usage rose", took)
	if took > 2*syncPeriod+500*time.Millisecond {
		t.Errorf("scale-up took %v, more than two sync periods (%v)", took, 2*syncPeriod)
	}
	wait(t, 10*time.Second, func() string {
		got := e.hpa(t, "web")
		c := condition(got, autoscalingv2.ScalingLimited)
		if n := e.replicas(t, "web"); n != 5 || c.Status != corev1.ConditionTrue || c.Reason != "TooManyReplicas" || got.Status.DesiredReplicas != 5 {
			return fmt.Sprintf("replicas %d, ScalingLimited %+v, status %+v", n, c, got.Status)
		}
		return ""
	})

	// Lowered to 20%: the count holds for the stabilization window, then
	// drops to ceil(0.4 * 5) = 2.
	e.metrics.cpuMilli.Store(20)
	took = wait(t, 30*time.Second, func() string {
		if n := e.replicas(t, "web"); n == 5 {
			return "not scaled down"
		}
		return ""
	})
	t.Logf("scaled down %v after the usage fell (window %v)", took, downWindow)
	if took < downWindow-syncPeriod {
		t.Errorf("scaled down %v after the usage fell, inside the %v stabilization window", took, downWindow)
	}
	wait(t, 10*time.Second, func() string {
		if n := e.replicas(t, "web"); n != 2 {
			return fmt.Sprintf("replicas %d, want 2", n)
		}
		return ""
	})

	// Lowered to 1%: the metrics ask for 1, minReplicas holds 2.
	e.metrics.cpuMilli.Store(1)
	wait(t, 20*time.Second, func() string {
		got := e.hpa(t, "web")
		c := condition(got, autoscalingv2.ScalingLimited)
		if c.Status != corev1.ConditionTrue || c.Reason != "TooFewReplicas" || cpuPercent(got) != 1 {
			return fmt.Sprintf("ScalingLimited %+v cpu %d%%", c, cpuPercent(got))
		}
		return ""
	})
	if n := e.replicas(t, "web"); n != 2 {
		t.Fatalf("replicas %d below minReplicas", n)
	}

	// Each rescale left an event.
	events, err := e.set.Events.Namespace(ns).List(e.ctx, meta.ListOptions{FieldSelector: "involvedObject.kind=HorizontalPodAutoscaler"})
	if err != nil {
		t.Fatal(err)
	}
	var rescales []string
	for _, ev := range events.Items {
		if ev.Reason == "SuccessfulRescale" {
			rescales = append(rescales, ev.Message)
		}
	}
	want := []string{"New size: 5; reason: cpu resource utilization (percentage of request) above target", "New size: 2; reason: All metrics below target"}
	if strings.Join(rescales, "|") != strings.Join(want, "|") {
		t.Errorf("SuccessfulRescale events %q, want %q", rescales, want)
	}
}
