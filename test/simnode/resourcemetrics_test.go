package simnode

import (
	"bytes"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
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
