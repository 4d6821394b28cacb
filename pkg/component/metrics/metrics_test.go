package metrics

import (
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"platform.io/client/workqueue"
)

// gather returns the metric families of reg by name.
func gather(t *testing.T, reg *prometheus.Registry) map[string]*dto.MetricFamily {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*dto.MetricFamily{}
	for _, mf := range mfs {
		out[mf.GetName()] = mf
	}
	return out
}

func TestWorkqueueThroughAQueue(t *testing.T) {
	reg := prometheus.NewRegistry()
	p, err := NewWorkqueue(reg)
	if err != nil {
		t.Fatal(err)
	}
	q := workqueue.NewQueue(workqueue.Options[string]{Name: "deployments", MetricsProvider: p})
	defer q.ShutDown()
	q.Add("a")
	q.Add("b")
	q.Add("a") // duplicate: not counted
	item, _ := q.Get()
	q.Done(item)
	q.AddAfter("c", time.Hour)
	value := func(m *dto.Metric) float64 {
		switch {
		case m.Counter != nil:
			return m.Counter.GetValue()
		case m.Gauge != nil:
			return m.Gauge.GetValue()
		case m.Histogram != nil:
			return float64(m.Histogram.GetSampleCount())
		}
		return -1
	}
	tests := []struct {
		metric string
		want   float64
	}{
		{"workqueue_adds_total", 2},
		{"workqueue_depth", 1},
		{"workqueue_retries_total", 1},
		{"workqueue_queue_duration_seconds", 1},
		{"workqueue_work_duration_seconds", 1},
		{"workqueue_unfinished_work_seconds", 0},
		{"workqueue_longest_running_processor_seconds", 0},
	}
	families := gather(t, reg)
	for _, tt := range tests {
		t.Run(tt.metric, func(t *testing.T) {
			mf := families[tt.metric]
			if mf == nil || len(mf.Metric) != 1 {
				t.Fatalf("%s: family %v", tt.metric, mf)
			}
			m := mf.Metric[0]
			if l := m.GetLabel(); len(l) != 1 || l[0].GetName() != "name" || l[0].GetValue() != "deployments" {
				t.Fatalf("%s: labels %v", tt.metric, l)
			}
			if got := value(m); got != tt.want {
				t.Fatalf("%s = %g, want %g", tt.metric, got, tt.want)
			}
		})
	}
}

func TestSharedRegistry(t *testing.T) {
	tests := []struct {
		name string
		make func(prometheus.Registerer) error
	}{
		{"workqueue", func(r prometheus.Registerer) error { _, err := NewWorkqueue(r); return err }},
		{"rest client", func(r prometheus.Registerer) error { _, err := NewRESTClient(r); return err }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := prometheus.NewRegistry()
			for i := range 2 {
				if err := tt.make(reg); err != nil {
					t.Fatalf("provider %d: %v", i, err)
				}
			}
		})
	}
}

func TestRESTClient(t *testing.T) {
	reg := prometheus.NewRegistry()
	m, err := NewRESTClient(reg)
	if err != nil {
		t.Fatal(err)
	}
	m.ObserveRateLimiterWait("GET", "10.0.0.1:6443", 30*time.Millisecond)
	m.ObserveRateLimiterWait("GET", "10.0.0.1:6443", 2*time.Second)
	mf := gather(t, reg)["rest_client_rate_limiter_duration_seconds"]
	if mf == nil || len(mf.Metric) != 1 {
		t.Fatalf("family %v", mf)
	}
	h := mf.Metric[0].GetHistogram()
	labels := map[string]string{}
	for _, l := range mf.Metric[0].GetLabel() {
		labels[l.GetName()] = l.GetValue()
	}
	if h.GetSampleCount() != 2 || h.GetSampleSum() != 2.03 || labels["verb"] != "GET" || labels["host"] != "10.0.0.1:6443" {
		t.Fatalf("histogram count %d sum %g labels %v", h.GetSampleCount(), h.GetSampleSum(), labels)
	}
	if n := len(h.GetBucket()); n != 12 {
		t.Fatalf("%d buckets, want 12", n)
	}
}
