package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"
)

// topPodManifest is a pod of two containers whose simulated usage its
// annotations set: app uses cpu and memory, side the fixed 50m and 16Mi.
func topPodManifest(ns, name, cpu, memory string) string {
	return fmt.Sprintf(`apiVersion: v1
kind: Pod
metadata:
  name: %s
  namespace: %s
  labels: {app: top}
  annotations:
    simnode.platform.io/cpu-usage: %q
    simnode.platform.io/memory-usage: %q
    simnode.platform.io/cpu-usage.side: "50m"
    simnode.platform.io/memory-usage.side: "16Mi"
spec:
  containers:
  - {name: app, image: nginx:latest}
  - {name: side, image: busybox:latest}
`, name, ns, cpu, memory)
}

// milli parses a kubectl top CPU figure ("250m") into millicores, or -1.
func milli(s string) int {
	v, err := strconv.Atoi(strings.TrimSuffix(s, "m"))
	if err != nil || !strings.HasSuffix(s, "m") {
		return -1
	}
	return v
}

// mebi parses a kubectl top memory figure ("80Mi") into MiB, or -1.
func mebi(s string) int {
	v, err := strconv.Atoi(strings.TrimSuffix(s, "Mi"))
	if err != nil || !strings.HasSuffix(s, "Mi") {
		return -1
	}
	return v
}

// usageRow is one row of kubectl top pods: the columns after the key
// columns (namespace, pod, container) that select it.
type usageRow struct {
	key         []string
	cpu, memory int
}

// checkTop runs kubectl top with args and returns "" when every row of
// want is in its output with exactly that CPU and memory: a constant
// modelled rate reads back exactly once a whole window follows a change.
func (m *metricsCluster) checkTop(t *testing.T, want []usageRow, args ...string) string {
	t.Helper()
	r := m.Kubectl(t, append([]string{"top"}, args...)...)
	if r.Code != 0 {
		return r.String()
	}
	for _, w := range want {
		found := false
		for _, l := range strings.Split(r.Stdout, "\n") {
			f := strings.Fields(l)
			if len(f) != len(w.key)+2 || strings.Join(f[:len(w.key)], " ") != strings.Join(w.key, " ") {
				continue
			}
			found = true
			cpu, mem := milli(f[len(w.key)]), mebi(f[len(w.key)+1])
			if cpu != w.cpu || mem != w.memory {
				return fmt.Sprintf("row %v: %s %s, want %dm %dMi:\n%s", w.key, f[len(w.key)], f[len(w.key)+1], w.cpu, w.memory, r.Stdout)
			}
		}
		if !found {
			return fmt.Sprintf("no row %v:\n%s", w.key, r)
		}
	}
	return ""
}

// TestKubectlTop: the stock kubectl top, through the API server and the
// aggregated metrics server, shows what the simulated nodes report for the
// pods' usage annotations, per pod, per container, in all namespaces and
// summed per node, and follows a changed annotation; kubectl get
// apiservices shows the registration Available; RBAC decides who may read
// the metrics (403 without a binding, allowed through view, whose
// aggregation includes system:aggregated-metrics-reader).
func TestKubectlTop(t *testing.T) {
	t.Parallel()
	m := startMetricsCluster(t, metricsClusterConfig{nodes: 2, resolution: time.Second})
	// Two scrapes make the first rate, a third the first window wholly
	// after a change; the rest is the kubectl and scheduling round trips.
	within := 10*m.resolution + 20*time.Second

	out := m.MustKubectl(t, "get", "apiservice")
	WantHeader(t, out, "NAME", "SERVICE", "AVAILABLE", "AGE")
	for _, name := range []string{"v1beta1.metrics.k8s.io", "v1beta1.metrics.platform.io"} {
		if row := TableRow(t, out, name); strings.Join(row[1:3], " ") != "platform-system/platform-metrics-server True" {
			t.Errorf("kubectl get apiservices row %v", row)
		}
	}

	m.MustKubectl(t, "create", "namespace", "team-a")
	for _, p := range []string{
		topPodManifest("default", "web-0", "200m", "64Mi"),
		topPodManifest("default", "web-1", "200m", "64Mi"),
		topPodManifest("team-a", "db-0", "100m", "32Mi"),
	} {
		path := WriteManifest(t, p)
		// ServiceAccount admission refuses pods until the controller
		// manager has made the namespace's default account.
		Eventually(t, 30*time.Second, "create "+path, func() string {
			if r := m.Kubectl(t, "create", "-f", path); r.Code != 0 {
				return r.String()
			}
			return ""
		})
	}

	Eventually(t, within, "kubectl top pods", func() string {
		return m.checkTop(t, []usageRow{{[]string{"web-0"}, 250, 80}, {[]string{"web-1"}, 250, 80}}, "pods")
	})
	WantHeader(t, m.MustKubectl(t, "top", "pods"), "NAME", "CPU(cores)", "MEMORY(bytes)")
	if err := m.checkTop(t, []usageRow{
		{[]string{"web-0", "app"}, 200, 64}, {[]string{"web-0", "side"}, 50, 16},
		{[]string{"web-1", "app"}, 200, 64}, {[]string{"web-1", "side"}, 50, 16},
	}, "pods", "--containers"); err != "" {
		t.Errorf("kubectl top pods --containers: %s", err)
	}
	Eventually(t, within, "kubectl top pods -A", func() string {
		return m.checkTop(t, []usageRow{{[]string{"default", "web-0"}, 250, 80}, {[]string{"team-a", "db-0"}, 150, 48}}, "pods", "-A")
	})
	WantHeader(t, m.MustKubectl(t, "top", "pods", "-A"), "NAMESPACE", "NAME", "CPU(cores)", "MEMORY(bytes)")
	if out := m.MustKubectl(t, "top", "pods", "-n", "team-a"); strings.Contains(out, "web-0") {
		t.Errorf("kubectl top pods -n team-a shows a pod of default:\n%s", out)
	}

	// Each node reports the sum of its pods' usage.
	Eventually(t, within, "kubectl top nodes", func() string { return m.checkNodeTotals(t, 650, 208) })

	// A changed annotation shows as soon as a whole window follows it.
	m.MustKubectl(t, "annotate", "pod", "web-1", "--overwrite",
		"simnode.platform.io/cpu-usage=500m", "simnode.platform.io/memory-usage=128Mi")
	Eventually(t, within, "kubectl top pods after the annotation changed", func() string {
		return m.checkTop(t, []usageRow{{[]string{"web-0"}, 250, 80}, {[]string{"web-1"}, 550, 144}}, "pods")
	})
	Eventually(t, within, "kubectl top nodes after the annotation changed", func() string { return m.checkNodeTotals(t, 950, 272) })

	t.Run("rbac", func(t *testing.T) {
		eve := m.userKubeconfig(t, "eve")
		r := m.KubectlFails(t, "--kubeconfig", eve, "top", "pods")
		WantContains(t, r.Stderr, `Error from server (Forbidden): pods.metrics.k8s.io is forbidden: User "eve" cannot list resource "pods" in API group "metrics.k8s.io" in the namespace "default"`)
		r = m.KubectlFails(t, "--kubeconfig", eve, "top", "nodes")
		WantContains(t, r.Stderr, `Error from server (Forbidden): nodes.metrics.k8s.io is forbidden: User "eve" cannot list resource "nodes" in API group "metrics.k8s.io" at the cluster scope`)

		m.MustKubectl(t, "create", "rolebinding", "eve-views", "--clusterrole=view", "--user=eve")
		Eventually(t, 20*time.Second, "eve's kubectl top pods", func() string {
			if r := m.Kubectl(t, "--kubeconfig", eve, "top", "pods"); r.Code != 0 || !strings.Contains(r.Stdout, "web-0") {
				return r.String()
			}
			return ""
		})
		r = m.KubectlFails(t, "--kubeconfig", eve, "top", "pods", "-n", "team-a")
		WantContains(t, r.Stderr, `User "eve" cannot list resource "pods" in API group "metrics.k8s.io" in the namespace "team-a"`)
	})
}

// checkNodeTotals returns "" when kubectl top nodes shows every node and
// their CPU and memory add up to the pods'.
func (m *metricsCluster) checkNodeTotals(t *testing.T, cpu, memory int) string {
	t.Helper()
	r := m.Kubectl(t, "top", "nodes")
	if r.Code != 0 {
		return r.String()
	}
	lines := strings.Split(strings.TrimSpace(r.Stdout), "\n")
	if h := strings.Join(strings.Fields(lines[0]), " "); h != "NAME CPU(cores) CPU(%) MEMORY(bytes) MEMORY(%)" {
		return "header " + h
	}
	gotCPU, gotMem, nodes := 0, 0, 0
	for _, l := range lines[1:] {
		f := strings.Fields(l)
		if len(f) != 5 || !strings.HasPrefix(f[0], "simnode-") || milli(f[1]) < 0 || mebi(f[3]) < 0 {
			return "row " + l
		}
		nodes++
		gotCPU += milli(f[1])
		gotMem += mebi(f[3])
	}
	if nodes < 2 || gotCPU != cpu || gotMem != memory {
		return fmt.Sprintf("%d nodes, %dm %dMi in all, want %dm %dMi:\n%s", nodes, gotCPU, gotMem, cpu, memory, r.Stdout)
	}
	return ""
}
