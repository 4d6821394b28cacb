package simnode

import (
	"bufio"
	"cmp"
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strconv"
	"time"

	"go.uber.org/zap"

	corev1 "platform.io/client/api/core/v1"
)

// ResourceMetricsPath is where each node serves its usage, as the
// kubelet does: Prometheus text format with the kubelet's metric names.
const ResourceMetricsPath = "/metrics/resource"

// podsByNode is the pod cache's index by spec.nodeName.
const podsByNode = "nodeName"

// serveResourceMetrics listens for node n on the configured address and a
// port of its own, and serves its usage over TLS until ctx ends. The
// node's status then publishes the address (InternalIP) and the port
// (daemonEndpoints.kubeletEndpoint), so that a metrics server finds it the
// way it finds a kubelet.
func (a *Agent) serveResourceMetrics(ctx context.Context, n *simNode) error {
	ln, err := net.Listen("tcp", net.JoinHostPort(a.cfg.ResourceMetricsAddress, "0"))
	if err != nil {
		return fmt.Errorf("simnode: resource metrics of %s: %w", n.name, err)
	}
	n.endpointPort = int32(ln.Addr().(*net.TCPAddr).Port)
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+ResourceMetricsPath, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		if err := a.writeResourceMetrics(w, n); err != nil {
			a.lg.Debug("Resource metrics not written", zap.String("node", n.name), zap.Error(err))
		}
	})
	srv := &http.Server{
		Handler:           mux,
		TLSConfig:         &tls.Config{Certificates: []tls.Certificate{*a.cfg.ServingCert}, MinVersion: tls.VersionTLS12},
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          zap.NewStdLog(a.lg.Named("resource-metrics")),
	}
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	go func() { _ = srv.ServeTLS(ln, "", "") }()
	return nil
}

// nodePods returns the cached pods bound to node name.
func (a *Agent) nodePods(name string) []*corev1.Pod {
	pods, err := a.podStore.ByIndex(podsByNode, name)
	if err != nil {
		return nil
	}
	return pods
}

// observeUsage brings the node's counters to now under the pods' current
// model; called on every change of one of its pods, so a new rate counts
// from when the agent saw it.
func (a *Agent) observeUsage(n *simNode) {
	if a.cfg.ResourceMetricsAddress == "" {
		return
	}
	pods := a.nodePods(n.name)
	n.mu.Lock()
	defer n.mu.Unlock()
	n.meter.sync(a.now(), pods, a.cfg.Usage)
}

// writeResourceMetrics writes the node's usage as of now.
func (a *Agent) writeResourceMetrics(w io.Writer, n *simNode) error {
	pods := a.nodePods(n.name)
	n.mu.Lock()
	now := a.now()
	n.meter.sync(now, pods, a.cfg.Usage)
	s := n.meter.snapshot()
	n.mu.Unlock()
	return s.write(w, now)
}

// usageSnapshot is a meter's state at one moment.
type usageSnapshot struct {
	nodeCPU    float64
	nodeMemory int64
	containers []containerSample
}

type containerSample struct {
	key     containerKey
	cpu     float64
	memory  int64
	started time.Time
}

// snapshot copies the meter, containers in namespace, pod, name order.
func (m *meter) snapshot() usageSnapshot {
	s := usageSnapshot{nodeCPU: m.node.total}
	for k, c := range m.containers {
		s.containers = append(s.containers, containerSample{key: k, cpu: c.cpu.total, memory: c.memory, started: c.started})
		s.nodeMemory += c.memory
	}
	slices.SortFunc(s.containers, func(x, y containerSample) int {
		return cmp.Or(cmp.Compare(x.key.namespace, y.key.namespace), cmp.Compare(x.key.pod, y.key.pod),
			cmp.Compare(x.key.container, y.key.container), cmp.Compare(x.key.id, y.key.id))
	})
	return s
}

// write renders the snapshot as the kubelet's /metrics/resource does,
// every sample stamped with now in milliseconds.
func (s usageSnapshot) write(w io.Writer, now time.Time) error {
	bw := bufio.NewWriter(w)
	ts := strconv.FormatInt(now.UnixMilli(), 10)
	num := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	family := func(name, typ, help string) {
		fmt.Fprintf(bw, "# HELP %s [STABLE] %s\n# TYPE %s %s\n", name, help, name, typ)
	}
	cLabels := func(k containerKey) string {
		return fmt.Sprintf("{container=%q,namespace=%q,pod=%q}", k.container, k.namespace, k.pod)
	}
	family("container_cpu_usage_seconds_total", "counter", "Cumulative cpu time consumed by the container in core-seconds")
	for _, c := range s.containers {
		fmt.Fprintf(bw, "container_cpu_usage_seconds_total%s %s %s\n", cLabels(c.key), num(c.cpu), ts)
	}
	family("container_memory_working_set_bytes", "gauge", "Current working set of the container in bytes")
	for _, c := range s.containers {
		fmt.Fprintf(bw, "container_memory_working_set_bytes%s %d %s\n", cLabels(c.key), c.memory, ts)
	}
	family("container_start_time_seconds", "gauge", "Start time of the container since unix epoch in seconds")
	for _, c := range s.containers {
		fmt.Fprintf(bw, "container_start_time_seconds%s %s %s\n", cLabels(c.key), num(float64(c.started.UnixNano())/1e9), ts)
	}
	family("node_cpu_usage_seconds_total", "counter", "Cumulative cpu time consumed by the node in core-seconds")
	fmt.Fprintf(bw, "node_cpu_usage_seconds_total %s %s\n", num(s.nodeCPU), ts)
	family("node_memory_working_set_bytes", "gauge", "Current working set of the node in bytes")
	fmt.Fprintf(bw, "node_memory_working_set_bytes %d %s\n", s.nodeMemory, ts)
	s.writePods(bw, family, num, ts)
	family("resource_scrape_error", "gauge", "1 if there was an error while getting container metrics, 0 otherwise")
	fmt.Fprintf(bw, "resource_scrape_error 0\n")
	return bw.Flush()
}

// writePods writes the per-pod sums.
func (s usageSnapshot) writePods(bw *bufio.Writer, family func(name, typ, help string), num func(float64) string, ts string) {
	type podKey struct{ namespace, pod string }
	var order []podKey
	cpu, mem := map[podKey]float64{}, map[podKey]int64{}
	for _, c := range s.containers {
		k := podKey{c.key.namespace, c.key.pod}
		if _, ok := cpu[k]; !ok {
			order = append(order, k)
		}
		cpu[k] += c.cpu
		mem[k] += c.memory
	}
	family("pod_cpu_usage_seconds_total", "counter", "Cumulative cpu time consumed by the pod in core-seconds")
	for _, k := range order {
		fmt.Fprintf(bw, "pod_cpu_usage_seconds_total{namespace=%q,pod=%q} %s %s\n", k.namespace, k.pod, num(cpu[k]), ts)
	}
	family("pod_memory_working_set_bytes", "gauge", "Current working set of the pod in bytes")
	for _, k := range order {
		fmt.Fprintf(bw, "pod_memory_working_set_bytes{namespace=%q,pod=%q} %d %s\n", k.namespace, k.pod, mem[k], ts)
	}
}
