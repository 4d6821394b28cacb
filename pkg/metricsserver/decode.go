package metricsserver

import (
	"errors"
	"fmt"
	"io"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// The kubelet's resource metrics this package reads.
const (
	metricNodeCPU          = "node_cpu_usage_seconds_total"
	metricNodeMemory       = "node_memory_working_set_bytes"
	metricContainerCPU     = "container_cpu_usage_seconds_total"
	metricContainerMemory  = "container_memory_working_set_bytes"
	metricContainerStarted = "container_start_time_seconds"
)

// ErrNoNodeMetrics reports a scrape without the node's CPU or memory.
var ErrNoNodeMetrics = errors.New("metricsserver: no node_cpu_usage_seconds_total or node_memory_working_set_bytes")

// point is one sample of cumulative CPU and memory.
type point struct {
	// Time is when the sample was taken, by the node's clock.
	Time time.Time
	// CPU is cumulative CPU time in core-seconds.
	CPU float64
	// Memory is the working set in bytes.
	Memory int64
	// Started is when the container started; zero for a node.
	Started time.Time
}

// podRef names a pod.
type podRef struct{ Namespace, Name string }

// nodeSample is one scrape of one node.
type nodeSample struct {
	Node point
	// Pods maps each pod to its containers' points by name.
	Pods map[podRef]map[string]point
}

// decode reads a /metrics/resource body. Samples without a timestamp are
// stamped with scraped. A container lacking CPU or memory is left out.
func decode(r io.Reader, scraped time.Time) (*nodeSample, error) {
	parser := expfmt.NewTextParser(model.LegacyValidation)
	families, err := parser.TextToMetricFamilies(r)
	if err != nil {
		return nil, fmt.Errorf("metricsserver: parse resource metrics: %w", err)
	}
	s := &nodeSample{Pods: map[podRef]map[string]point{}}
	var haveCPU, haveMem bool
	if m := single(families[metricNodeCPU]); m != nil {
		s.Node.CPU, s.Node.Time, haveCPU = value(m), stamp(m, scraped), true
	}
	if m := single(families[metricNodeMemory]); m != nil {
		s.Node.Memory, haveMem = int64(value(m)), true
		if !haveCPU {
			s.Node.Time = stamp(m, scraped)
		}
	}
	if !haveCPU || !haveMem {
		return nil, ErrNoNodeMetrics
	}
	type key struct {
		pod       podRef
		container string
	}
	points := map[key]*point{}
	seenCPU, seenMem := map[key]bool{}, map[key]bool{}
	get := func(m *dto.Metric) (key, *point) {
		k := key{podRef{label(m, "namespace"), label(m, "pod")}, label(m, "container")}
		p := points[k]
		if p == nil {
			p = &point{}
			points[k] = p
		}
		return k, p
	}
	for _, m := range metrics(families[metricContainerCPU]) {
		k, p := get(m)
		p.CPU, p.Time = value(m), stamp(m, scraped)
		seenCPU[k] = true
	}
	for _, m := range metrics(families[metricContainerMemory]) {
		k, p := get(m)
		p.Memory = int64(value(m))
		seenMem[k] = true
	}
	for _, m := range metrics(families[metricContainerStarted]) {
		_, p := get(m)
		v := value(m)
		p.Started = time.Unix(0, int64(v*1e9))
	}
	for k, p := range points {
		if !seenCPU[k] || !seenMem[k] || k.pod.Name == "" || k.container == "" {
			continue
		}
		if s.Pods[k.pod] == nil {
			s.Pods[k.pod] = map[string]point{}
		}
		s.Pods[k.pod][k.container] = *p
	}
	return s, nil
}

func metrics(f *dto.MetricFamily) []*dto.Metric {
	if f == nil {
		return nil
	}
	return f.GetMetric()
}

func single(f *dto.MetricFamily) *dto.Metric {
	if ms := metrics(f); len(ms) == 1 {
		return ms[0]
	}
	return nil
}

// value is the sample's value whatever the family's type.
func value(m *dto.Metric) float64 {
	switch {
	case m.Counter != nil:
		return m.Counter.GetValue()
	case m.Gauge != nil:
		return m.Gauge.GetValue()
	case m.Untyped != nil:
		return m.Untyped.GetValue()
	}
	return 0
}

func stamp(m *dto.Metric, dflt time.Time) time.Time {
	if m.TimestampMs == nil {
		return dflt
	}
	return time.UnixMilli(m.GetTimestampMs())
}

func label(m *dto.Metric, name string) string {
	for _, l := range m.GetLabel() {
		if l.GetName() == name {
			return l.GetValue()
		}
	}
	return ""
}
