package simnode

import (
	"bytes"
	"math"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/resource"
)

// TestResourceMetricsFormat: the usage is written as the kubelet's
// /metrics/resource, in Prometheus text format a standard parser reads,
// every sample stamped with the scrape time.
func TestResourceMetricsFormat(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 10, 0, time.UTC)
	started := now.Add(-10 * time.Second)
	s := usageSnapshot{nodeCPU: 12.5, nodeMemory: 3 << 20, containers: []containerSample{
		{key: containerKey{namespace: "ns", pod: "p", container: "a", id: "x"}, cpu: 2, memory: 1 << 20, started: started},
		{key: containerKey{namespace: "ns", pod: "p", container: "b", id: "y"}, cpu: 0.5, memory: 2 << 20, started: started},
	}}
	var buf bytes.Buffer
	if err := s.write(&buf, now); err != nil {
		t.Fatal(err)
	}
	p := expfmt.NewTextParser(model.LegacyValidation)
	families, err := p.TextToMetricFamilies(&buf)
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, buf.String())
	}
	want := map[string][]float64{
		"node_cpu_usage_seconds_total":       {12.5},
		"node_memory_working_set_bytes":      {3 << 20},
		"container_cpu_usage_seconds_total":  {2, 0.5},
		"container_memory_working_set_bytes": {1 << 20, 2 << 20},
		"container_start_time_seconds":       {float64(started.Unix()), float64(started.Unix())},
		"pod_cpu_usage_seconds_total":        {2.5},
		"pod_memory_working_set_bytes":       {3 << 20},
		"resource_scrape_error":              {0},
	}
	for name, values := range want {
		f := families[name]
		if f == nil || len(f.GetMetric()) != len(values) {
			t.Fatalf("%s: got %v, want %d samples", name, f, len(values))
		}
		for i, m := range f.GetMetric() {
			v := m.GetGauge().GetValue() + m.GetCounter().GetValue() + m.GetUntyped().GetValue()
			if v != values[i] {
				t.Errorf("%s[%d] = %v, want %v", name, i, v, values[i])
			}
			if name != "resource_scrape_error" && m.GetTimestampMs() != now.UnixMilli() {
				t.Errorf("%s[%d] stamped %d, want %d", name, i, m.GetTimestampMs(), now.UnixMilli())
			}
		}
	}
	c := families["container_cpu_usage_seconds_total"].GetMetric()[1]
	labels := map[string]string{}
	for _, l := range c.GetLabel() {
		labels[l.GetName()] = l.GetValue()
	}
	if labels["namespace"] != "ns" || labels["pod"] != "p" || labels["container"] != "b" {
		t.Errorf("labels %v", labels)
	}
}

// TestRateOfWrittenSamples: the rate a metrics server computes from two
// scrapes (the counters' difference over the difference of their
// millisecond timestamps) is the modelled rate exactly, whatever the
// sub-millisecond part of the scrape times; a counter taken at the exact
// time but stamped with the time rounded down to the millisecond was off
// by up to a millisecond's worth, which the metrics API's rounding up to
// whole millicores turned into 101m for 100m.
func TestRateOfWrittenSamples(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 300_000, time.UTC)
	def := Usage{CPU: resource.MustParse("0"), Memory: resource.MustParse("1Mi")}
	pod := runningPod("a", "100m", t0, "c1")
	m := newMeter(t0)
	m.sync(t0, []*corev1.Pod{pod}, def)
	scrape := func(now time.Time) (float64, int64) {
		t.Helper()
		m.sync(now, []*corev1.Pod{pod}, def)
		var buf bytes.Buffer
		if err := m.snapshot().write(&buf, now); err != nil {
			t.Fatal(err)
		}
		parser := expfmt.NewTextParser(model.LegacyValidation)
		families, err := parser.TextToMetricFamilies(&buf)
		if err != nil {
			t.Fatal(err)
		}
		c := families["container_cpu_usage_seconds_total"].GetMetric()[0]
		return c.GetCounter().GetValue() + c.GetUntyped().GetValue(), c.GetTimestampMs()
	}
	for _, step := range []time.Duration{
		time.Second + 900*time.Microsecond,
		time.Second + 100*time.Microsecond,
		15*time.Second + 999*time.Microsecond,
	} {
		v1, ts1 := scrape(t0.Add(step))
		v2, ts2 := scrape(t0.Add(2*step + 450*time.Microsecond))
		rate := (v2 - v1) / (float64(ts2-ts1) / 1000)
		if math.Abs(rate-0.1) > 1e-9 {
			t.Errorf("scrapes %v apart: rate %.12f cores, want 0.1", step, rate)
		}
		t0 = t0.Add(2*step + 450*time.Microsecond)
	}
}
