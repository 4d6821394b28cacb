package podautoscaler

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"platform.io/platform/test/integration/framework"
)

// TestKubectl: the stock kubectl's autoscale (1.32 posts autoscaling/v1)
// creates an autoscaler the server stores once and serves in both
// versions, and get hpa prints upstream's columns.
func TestKubectl(t *testing.T) {
	kubectl, err := exec.LookPath("kubectl")
	if err != nil {
		t.Skip("no kubectl on PATH")
	}
	s := framework.Start(t)
	kubeconfig := filepath.Join(t.TempDir(), "none")
	run := func(args ...string) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, kubectl, append([]string{"--server", s.URL, "-n", "default"}, args...)...)
		cmd.Env = append(os.Environ(), "KUBECONFIG="+kubeconfig, "HOME="+t.TempDir())
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("kubectl %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	s.Do(t, "POST", "/apis/apps/v1/namespaces/default/deployments", webDeployment(2)).Expect(t, http.StatusCreated)

	out := run("autoscale", "deployment", "web", "--cpu-percent=50", "--min=1", "--max=10")
	if !strings.Contains(out, "horizontalpodautoscaler.autoscaling/web autoscaled") {
		t.Errorf("autoscale printed %q", out)
	}

	var v2 struct {
		Spec struct {
			ScaleTargetRef map[string]string `json:"scaleTargetRef"`
			MinReplicas    int               `json:"minReplicas"`
			MaxReplicas    int               `json:"maxReplicas"`
			Metrics        []json.RawMessage `json:"metrics"`
		} `json:"spec"`
	}
	s.Do(t, "GET", "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/web", nil).Expect(t, http.StatusOK).Into(t, &v2)
	if v2.Spec.ScaleTargetRef["kind"] != "Deployment" || v2.Spec.ScaleTargetRef["apiVersion"] != "apps/v1" || v2.Spec.MinReplicas != 1 || v2.Spec.MaxReplicas != 10 ||
		len(v2.Spec.Metrics) != 1 || !strings.Contains(string(v2.Spec.Metrics[0]), `"averageUtilization":50`) {
		t.Errorf("v2 form: %+v %s", v2.Spec, v2.Spec.Metrics)
	}
	v1 := s.Do(t, "GET", "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/web", nil).Expect(t, http.StatusOK).Map(t)
	spec := v1["spec"].(map[string]any)
	if spec["targetCPUUtilizationPercentage"] != float64(50) || spec["maxReplicas"] != float64(10) {
		t.Errorf("v1 form: %v", v1)
	}
	if a, _ := v1["metadata"].(map[string]any)["annotations"].(map[string]any); len(a) != 0 {
		t.Errorf("a plain CPU autoscaler has v1 annotations: %v", a)
	}

	out = run("get", "hpa")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || strings.Join(strings.Fields(lines[0]), " ") != "NAME REFERENCE TARGETS MINPODS MAXPODS REPLICAS AGE" {
		t.Fatalf("get hpa:\n%s", out)
	}
	if got := strings.Join(strings.Fields(lines[1])[:7], " "); !strings.HasPrefix(got, "web Deployment/web cpu: <unknown>/50% 1 10 0") {
		t.Errorf("get hpa row %q", lines[1])
	}
	out = run("describe", "hpa", "web")
	for _, want := range []string{"Reference:", "Deployment/web", "Min replicas:", "Max replicas:", "10"} {
		if !strings.Contains(out, want) {
			t.Errorf("describe hpa lacks %q:\n%s", want, out)
		}
	}
	out = run("get", "horizontalpodautoscalers.v1.autoscaling", "web", "-o", "jsonpath={.apiVersion} {.spec.targetCPUUtilizationPercentage}")
	if out != "autoscaling/v1 50" {
		t.Errorf("get through v1: %q", out)
	}
}
