package e2e

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The autoscaler's flags in TestHorizontalPodAutoscaler, short so that the
// test takes about a minute; its deadlines are derived from them.
const (
	hpaSyncPeriod      = 4 * time.Second
	hpaDownscale       = 16 * time.Second
	hpaResolution      = time.Second
	cpuUsageAnnotation = "simnode.platform.io/cpu-usage"
)

// webAutoscaled is a Deployment whose pods request 100m of CPU and, until
// the test annotates them, use none, so that the pods a scale-up adds use
// nothing and the load the test sets on the first two is spread, as a
// load balancer would spread it.
const webAutoscaled = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata:
      labels: {app: web}
      annotations: {simnode.platform.io/cpu-usage: "0"}
    spec:
      containers:
      - name: app
        image: nginx:latest
        resources: {requests: {cpu: 100m}}
`

// hpaState is what the test reads of the autoscaler (autoscaling/v2) and
// its Deployment.
type hpaState struct {
	Status struct {
		CurrentReplicas int32 `json:"currentReplicas"`
		DesiredReplicas int32 `json:"desiredReplicas"`
		CurrentMetrics  []struct {
			Resource *struct {
				Name    string `json:"name"`
				Current struct {
					AverageUtilization *int32 `json:"averageUtilization"`
				} `json:"current"`
			} `json:"resource"`
		} `json:"currentMetrics"`
		Conditions []struct {
			Type, Status, Reason, Message string
		} `json:"conditions"`
	} `json:"status"`
	// replicas is the Deployment's spec.replicas.
	replicas int
}

// utilization is the CPU utilization the autoscaler last saw, or -1.
func (h hpaState) utilization() int32 {
	for _, m := range h.Status.CurrentMetrics {
		if m.Resource != nil && m.Resource.Name == "cpu" && m.Resource.Current.AverageUtilization != nil {
			return *m.Resource.Current.AverageUtilization
		}
	}
	return -1
}

// condition is "Status/Reason" of the condition of type typ.
func (h hpaState) condition(typ string) string {
	for _, c := range h.Status.Conditions {
		if c.Type == typ {
			return c.Status + "/" + c.Reason
		}
	}
	return "absent"
}

func (h hpaState) String() string {
	conds := make([]string, 0, len(h.Status.Conditions))
	for _, c := range h.Status.Conditions {
		conds = append(conds, fmt.Sprintf("%s=%s/%s (%s)", c.Type, c.Status, c.Reason, c.Message))
	}
	return fmt.Sprintf("deployment replicas %d; hpa current %d desired %d, cpu %d%%; %s",
		h.replicas, h.Status.CurrentReplicas, h.Status.DesiredReplicas, h.utilization(), strings.Join(conds, ", "))
}

// hpa reads the autoscaler web through autoscaling/v2 and the replicas of
// its Deployment, and logs what changed since the last read.
func (m *metricsCluster) hpa(t *testing.T) hpaState {
	t.Helper()
	var h hpaState
	out := m.MustKubectl(t, "get", "horizontalpodautoscalers.v2.autoscaling", "web", "-o", "json")
	if err := json.Unmarshal([]byte(out), &h); err != nil {
		t.Fatalf("decode the autoscaler: %v\n%s", err, out)
	}
	n, err := strconv.Atoi(m.field(t, "{.spec.replicas}", "get", "deployment", "web"))
	if err != nil {
		t.Fatalf("the Deployment's replicas: %v", err)
	}
	h.replicas = n
	if now := h.String(); now != m.lastHPA {
		t.Logf("%s: %s", time.Now().Format("15:04:05.000"), now)
		m.lastHPA = now
	}
	return h
}

// setWebUsage sets the CPU usage annotation of every pod of web.
func (m *metricsCluster) setWebUsage(t *testing.T, cpu string) {
	t.Helper()
	m.MustKubectl(t, "annotate", "pods", "-l", "app=web", "--overwrite", cpuUsageAnnotation+"="+cpu)
}

// consistently fails t if check answers anything but "" before for has
// passed, polling as Eventually does.
func consistently(t *testing.T, d time.Duration, what string, check func() string) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		if msg := check(); msg != "" {
			t.Fatalf("%s: broken within %v: %s", what, d, msg)
		}
		if time.Now().After(deadline) {
			return
		}
		<-time.After(250 * time.Millisecond)
	}
}

// TestHorizontalPodAutoscaler is issue 18's done-means for the autoscaler
// on the built binaries: a Deployment on simulated nodes, autoscaled with
// the stock kubectl (autoscale, get hpa), whose pods' reported CPU usage
// the test raises and lowers through their annotation. Inside the
// tolerance nothing moves for two sync periods; above it the Deployment
// scales up within two sync periods; below it, only after the downscale
// stabilization window. The status conditions and SuccessfulRescale
// events say so.
func TestHorizontalPodAutoscaler(t *testing.T) {
	t.Parallel()
	m := startMetricsCluster(t, metricsClusterConfig{nodes: 2, resolution: hpaResolution, cmArgs: []string{
		"--horizontal-pod-autoscaler-sync-period=" + hpaSyncPeriod.String(),
		"--horizontal-pod-autoscaler-downscale-stabilization=" + hpaDownscale.String(),
	}})
	// A changed annotation is in the metrics after at most two scrapes
	// (the window that spans the change shows a blend).
	metricsLag := 2 * hpaResolution

	m.MustKubectl(t, "apply", "-f", WriteManifest(t, webAutoscaled))
	Eventually(t, 60*time.Second, "web available", func() string {
		return want(m.field(t, "{.status.availableReplicas}", "get", "deployment", "web"), "2")
	})
	// 50m of 100m: the target. The autoscaler is created once the metrics
	// show it, so that no recommendation from the idle start is in its
	// downscale window.
	m.setWebUsage(t, "50m")
	Eventually(t, 30*time.Second, "kubectl top pods shows 50m for each pod of web", func() string {
		r := m.Kubectl(t, "top", "pods", "-l", "app=web", "--no-headers")
		lines := strings.Split(strings.TrimSpace(r.Stdout), "\n")
		if r.Code != 0 || len(lines) != 2 {
			return r.String()
		}
		for _, l := range lines {
			if f := strings.Fields(l); len(f) != 3 || milli(f[1]) != 50 {
				return r.String()
			}
		}
		return ""
	})

	m.Expect(t, "horizontalpodautoscaler.autoscaling/web autoscaled",
		"autoscale", "deployment", "web", "--cpu-percent=50", "--min=1", "--max=10")
	Eventually(t, 2*hpaSyncPeriod+10*time.Second, "the first evaluation", func() string {
		h := m.hpa(t)
		if h.utilization() != 50 || h.condition("ScalingActive") != "True/ValidMetricFound" {
			return h.String()
		}
		return ""
	})
	out := m.MustKubectl(t, "get", "hpa")
	WantHeader(t, out, "NAME", "REFERENCE", "TARGETS", "MINPODS", "MAXPODS", "REPLICAS", "AGE")
	WantMatch(t, out, `^web\s+Deployment/web\s+cpu: 50%/50%\s+1\s+10\s+2\s`)

	t.Run("inside the tolerance", func(t *testing.T) {
		// 53% against 50%: a ratio of 1.06, inside the 0.1 tolerance.
		m.setWebUsage(t, "53m")
		Eventually(t, hpaSyncPeriod+metricsLag+10*time.Second, "the autoscaler sees 53%", func() string {
			if h := m.hpa(t); h.utilization() != 53 {
				return h.String()
			}
			return ""
		})
		consistently(t, 2*hpaSyncPeriod, "two replicas inside the tolerance", func() string {
			h := m.hpa(t)
			if h.replicas != 2 || h.Status.DesiredReplicas != 2 || h.condition("AbleToScale") != "True/ReadyForNewScale" ||
				h.condition("ScalingLimited") != "False/DesiredWithinRange" {
				return h.String()
			}
			return ""
		})
		WantMatch(t, m.MustKubectl(t, "get", "hpa", "web", "--no-headers"), `^web\s+Deployment/web\s+cpu: 53%/50%\s+1\s+10\s+2\s`)
	})

	t.Run("scale up", func(t *testing.T) {
		// 100%, twice the target: four pods, among which the usage of
		// the first two is then spread (the new ones use nothing).
		start := time.Now()
		m.setWebUsage(t, "100m")
		Eventually(t, 2*hpaSyncPeriod+metricsLag+20*time.Second, "a scale-up", func() string {
			if h := m.hpa(t); h.replicas <= 2 {
				return h.String()
			}
			return ""
		})
		took := time.Since(start)
		t.Logf("scaled up %v after the usage rose (sync period %v)", took, hpaSyncPeriod)
		if took > 2*hpaSyncPeriod {
			t.Errorf("the scale-up took %v, more than two sync periods (%v)", took, 2*hpaSyncPeriod)
		}
		Eventually(t, 3*hpaSyncPeriod+30*time.Second, "four replicas at the target", func() string {
			h := m.hpa(t)
			if h.replicas != 4 || h.Status.DesiredReplicas != 4 || h.utilization() != 50 ||
				h.condition("ScalingActive") != "True/ValidMetricFound" {
				return h.String()
			}
			return want(m.field(t, "{.status.availableReplicas}", "get", "deployment", "web"), "4")
		})
	})

	t.Run("scale down after the stabilization window", func(t *testing.T) {
		start := time.Now()
		m.setWebUsage(t, "0")
		stabilized := false
		Eventually(t, hpaDownscale+2*hpaSyncPeriod+metricsLag+20*time.Second, "a scale-down", func() string {
			h := m.hpa(t)
			if h.replicas == 4 {
				stabilized = stabilized || h.condition("AbleToScale") == "True/ScaleDownStabilized"
				return h.String()
			}
			return ""
		})
		took := time.Since(start)
		t.Logf("scaled down %v after the usage fell (window %v, sync period %v)", took, hpaDownscale, hpaSyncPeriod)
		// The last recommendation of four was made at most one sync
		// period before the usage fell, or after it while the metrics
		// lagged; the first evaluation past the window acts on it.
		if took < hpaDownscale-hpaSyncPeriod {
			t.Errorf("scaled down %v after the usage fell, inside the %v stabilization window", took, hpaDownscale)
		}
		// At the latest: the metrics lag, the window, the sync after it,
		// and one more sync period of slack for a loaded machine.
		if limit := metricsLag + hpaDownscale + 2*hpaSyncPeriod + hpaSyncPeriod; took > limit {
			t.Errorf("scaled down %v after the usage fell: more than %v (the %v window, the metrics' lag and sync periods)", took, limit, hpaDownscale)
		}
		if !stabilized {
			t.Errorf("AbleToScale never said ScaleDownStabilized while the recommendation was held")
		}
		// No usage asks for none; minReplicas holds one.
		Eventually(t, 2*hpaSyncPeriod+10*time.Second, "one replica, limited by minReplicas", func() string {
			h := m.hpa(t)
			if h.replicas != 1 || h.Status.CurrentReplicas != 1 || h.Status.DesiredReplicas != 1 || h.condition("ScalingLimited") != "True/TooFewReplicas" {
				return h.String()
			}
			return ""
		})
		WantMatch(t, m.MustKubectl(t, "get", "hpa", "web", "--no-headers"), `^web\s+Deployment/web\s+cpu: 0%/50%\s+1\s+10\s+1\s`)
	})

	t.Run("rescale events", func(t *testing.T) {
		var events struct {
			Items []struct {
				Reason, Message string
				Count           int
			} `json:"items"`
		}
		out := m.MustKubectl(t, "get", "events", "--field-selector", "involvedObject.kind=HorizontalPodAutoscaler,involvedObject.name=web", "-o", "json")
		if err := json.Unmarshal([]byte(out), &events); err != nil {
			t.Fatal(err)
		}
		const up = "New size: %d; reason: cpu resource utilization (percentage of request) above target"
		var rescales []string
		for _, e := range events.Items {
			if e.Reason == "SuccessfulRescale" {
				rescales = append(rescales, e.Message)
			}
		}
		// The window that spans the rise may show a blend, scaling to
		// three before four.
		for _, msg := range rescales {
			if msg != fmt.Sprintf(up, 3) && msg != fmt.Sprintf(up, 4) && msg != "New size: 1; reason: All metrics below target" {
				t.Errorf("unexpected SuccessfulRescale event %q", msg)
			}
		}
		for _, msg := range []string{fmt.Sprintf(up, 4), "New size: 1; reason: All metrics below target"} {
			if !slices.Contains(rescales, msg) {
				t.Errorf("no SuccessfulRescale event %q among %q", msg, rescales)
			}
		}
		WantContains(t, m.MustKubectl(t, "describe", "hpa", "web"), "SuccessfulRescale", "New size: 4", "New size: 1")
	})
}
