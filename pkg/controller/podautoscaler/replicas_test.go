package podautoscaler

import (
	"errors"
	"fmt"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/api/resource"
)

var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// pod builds a running, ready pod started long ago with one container
// requesting req millicores of CPU.
type podOpt func(*corev1.Pod)

func mkPod(name string, reqMilli int64, opts ...podOpt) *corev1.Pod {
	p := &corev1.Pod{
		ObjectMeta: meta.ObjectMeta{Name: name},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Resources: corev1.ResourceRequirements{
			Requests: corev1.ResourceList{corev1.ResourceCPU: *resource.NewMilliQuantity(reqMilli, resource.DecimalSI)},
		}}}},
		Status: corev1.PodStatus{
			Phase:      corev1.PodRunning,
			StartTime:  &meta.Time{Time: t0.Add(-time.Hour)},
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: meta.Time{Time: t0.Add(-time.Hour + time.Minute)}}},
		},
	}
	for _, o := range opts {
		o(p)
	}
	return p
}

func phase(ph corev1.PodPhase) podOpt { return func(p *corev1.Pod) { p.Status.Phase = ph } }

func deleted(p *corev1.Pod) { p.DeletionTimestamp = &meta.Time{Time: t0} }

// startedAgo starts the pod d ago, ready (or not) since readyAgo.
func startedAgo(d, readyAgo time.Duration, ready corev1.ConditionStatus) podOpt {
	return func(p *corev1.Pod) {
		p.Status.StartTime = &meta.Time{Time: t0.Add(-d)}
		p.Status.Conditions[0].Status = ready
		p.Status.Conditions[0].LastTransitionTime = meta.Time{Time: t0.Add(-readyAgo)}
	}
}

func noRequest(p *corev1.Pod) { p.Spec.Containers[0].Resources.Requests = nil }

func pods(n int, reqMilli int64) []*corev1.Pod {
	out := make([]*corev1.Pod, n)
	for i := range out {
		out[i] = mkPod(fmt.Sprintf("p%d", i), reqMilli)
	}
	return out
}

func usage(vals ...int64) map[string]PodUsage {
	m := map[string]PodUsage{}
	for i, v := range vals {
		if v >= 0 {
			m[fmt.Sprintf("p%d", i)] = PodUsage{Value: v, Timestamp: t0.Add(-10 * time.Second), Window: 30 * time.Second}
		}
	}
	return m
}

func calc() *Calculator {
	return &Calculator{Tolerance: 0.1, CPUInitializationPeriod: 5 * time.Minute, InitialReadinessDelay: 30 * time.Second, Now: func() time.Time { return t0 }}
}

func TestUtilizationReplicas(t *testing.T) {
	tests := []struct {
		name    string
		current int32
		target  int32
		pods    []*corev1.Pod
		samples map[string]PodUsage
		want    int32
		wantPct int32
		wantErr error
	}{
		{"scale up", 3, 50, pods(3, 1000), usage(900, 900, 900), 6, 90, nil},
		{"scale down", 4, 50, pods(4, 1000), usage(100, 100, 100, 100), 1, 10, nil},
		{"within tolerance up", 3, 50, pods(3, 1000), usage(540, 540, 540), 3, 54, nil},
		{"within tolerance down", 3, 50, pods(3, 1000), usage(460, 460, 460), 3, 46, nil},
		{"just outside tolerance", 3, 50, pods(3, 1000), usage(560, 560, 560), 4, 56, nil},
		{"missing pod on scale-up counts as zero", 3, 50, pods(3, 1000), usage(1000, 1000, -1), 4, 100, nil},
		{"missing pod on scale-down counts as full", 3, 50, pods(3, 1000), usage(100, 100, -1), 3, 10, nil},
		{"missing pods on big scale-down", 6, 50, pods(6, 1000), usage(0, 0, 0, 0, 0, -1), 2, 0, nil},
		{"pending pod held back on scale-up", 3, 50, append(pods(2, 1000), mkPod("p2", 1000, phase(corev1.PodPending))), usage(800, 800), 3, 80, nil},
		{"pending pod ignored on scale-down", 3, 50, append(pods(2, 1000), mkPod("p2", 1000, phase(corev1.PodPending))), usage(100, 100), 1, 10, nil},
		{"failed and deleting pods ignored", 3, 50, append(pods(2, 1000), mkPod("p2", 1000, phase(corev1.PodFailed)), mkPod("p3", 1000, deleted)), usage(1000, 1000, 5000, 5000), 4, 100, nil},
		{"initializing unready pod's CPU skipped", 2, 50, []*corev1.Pod{mkPod("p0", 1000), mkPod("p1", 1000, startedAgo(time.Minute, time.Minute, corev1.ConditionFalse))},
			usage(1000, 1000), 2, 100, nil},
		{"sample older than readiness skipped", 1, 50, []*corev1.Pod{mkPod("p0", 1000, startedAgo(time.Minute, 5*time.Second, corev1.ConditionTrue))},
			usage(1000), 0, 0, ErrNoMetrics},
		{"past initialization, late unready pod counts", 1, 50, []*corev1.Pod{mkPod("p0", 1000, startedAgo(time.Hour, time.Minute, corev1.ConditionFalse))},
			usage(1000), 2, 100, nil},
		{"no pods", 3, 50, nil, usage(), 0, 0, ErrNoPods},
		{"no metrics", 3, 50, pods(3, 1000), usage(), 0, 0, ErrNoMetrics},
		{"missing request", 1, 50, []*corev1.Pod{mkPod("p0", 1000, noRequest)}, usage(100), 0, 0, errMissingRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := calc().UtilizationReplicas(tt.current, tt.target, corev1.ResourceCPU, tt.pods, tt.samples)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("error = %v, want %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			if got.Replicas != tt.want || got.Percent != tt.wantPct {
				t.Errorf("got %d replicas at %d%%, want %d at %d%%", got.Replicas, got.Percent, tt.want, tt.wantPct)
			}
		})
	}
}

func TestAverageValueReplicas(t *testing.T) {
	tests := []struct {
		name    string
		current int32
		target  int64
		samples map[string]PodUsage
		want    int32
	}{
		{"up", 2, 200, usage(400, 400), 4},
		{"down", 4, 200, usage(50, 50, 50, 50), 1},
		{"tolerance", 2, 200, usage(210, 210), 2},
		{"missing on scale-down counts as target", 4, 200, usage(50, 50, 50, -1), 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := calc().AverageValueReplicas(tt.current, tt.target, corev1.ResourceMemory, pods(int(tt.current), 1000), tt.samples)
			if err != nil {
				t.Fatal(err)
			}
			if got.Replicas != tt.want {
				t.Errorf("got %d replicas, want %d", got.Replicas, tt.want)
			}
		})
	}
}
