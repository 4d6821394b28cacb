package bench

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/api/resource"
	"platform.io/client/rest"

	"platform.io/platform/pkg/apiserver/admission/plugins"
	"platform.io/platform/pkg/apiserver/admission/webhook/webhooktest"
	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/test/integration/framework"
)

// admissionClients and admissionWrites size BenchmarkAdmissionCost.
const (
	admissionClients = 64
	admissionWrites  = 3000
)

// admissionSide is a server configuration of BenchmarkAdmissionCost.
type admissionSide struct {
	name string
	opts framework.Option
}

// BenchmarkAdmissionCost measures what admission costs a write (issue
// 15): pod creates at 64 clients through the staging client, against
// in-process API servers that differ only in their admission chain:
// "bare" has every plugin off, "default" the default-on plugins, "webhook"
// those and one validating webhook on pod creates that admits everything
// (a real HTTPS server in the test process). Pods are what most plugins
// act on; the namespace has its default service account and no LimitRange
// or ResourceQuota.
//
// The default chain makes every pod bigger (the service-account token
// volume and its mounts, two tolerations, the priority fields), which
// costs every later step (validation, encoding, etcd, the response) and is
// no plugin's logic. "bare-same-pod" measures that apart: the bare server
// fed pods that already carry what the default chain adds, copied from a
// dry-run create on the default server. So default against bare-same-pod
// is the plugins' logic, and bare-same-pod against bare the bigger object.
func BenchmarkAdmissionCost(b *testing.B) {
	bare := func(o *options.Options) { o.Admission.Disable = plugins.DefaultOn() }
	configs := []admissionSide{
		{"bare", bare},
		{"bare-same-pod", bare},
		// The default chain includes ServiceAccount, which the test
		// framework turns off unless asked.
		{"default", framework.EnableAdmission("ServiceAccount")},
		{"webhook", framework.EnableAdmission("ServiceAccount")},
	}
	// setups run on a side's server once it is up.
	setups := map[string]func(b *testing.B, s *framework.Server){"webhook": registerNoopWebhook}
	servers := map[string]*framework.Server{}
	for _, c := range configs {
		s := startSideServer(b, c.name, c.opts)
		s.Do(b, http.MethodPost, "/api/v1/namespaces", `{"metadata":{"name":"adm-bench"}}`).Expect(b, http.StatusCreated)
		s.Do(b, http.MethodPost, "/api/v1/namespaces/adm-bench/serviceaccounts", `{"metadata":{"name":"default"}}`)
		if setup := setups[c.name]; setup != nil {
			setup(b, s)
		}
		servers[c.name] = s
	}
	admitted := admittedSpec(b, servers["default"])
	var sides []writeSide
	for _, c := range configs {
		client, err := rest.NewClient(&rest.Config{Host: servers[c.name].URL, QPS: -1})
		if err != nil {
			b.Fatal(err)
		}
		spec := benchPodSpec
		if c.name == "bare-same-pod" {
			// Encoding only reads the spec, so all pods share its parts.
			spec = func() corev1.PodSpec { return *admitted }
		}
		sides = append(sides, writeSide{name: c.name, write: func(lo, hi int) result { return createPods(client, c.name, spec, lo, hi) }})
	}
	got := compareWrites(b, fmt.Sprintf("admission cost, pod creates at %d clients", admissionClients), admissionWrites, sides)
	// The split of the default chain's cost, against the aim of 5%.
	logic, growth := got.cpuRatio("default", "bare-same-pod"), got.cpuRatio("bare-same-pod", "bare")
	fmt.Printf("CPU per write: plugin logic (default / bare-same-pod) %.2fx, object growth (bare-same-pod / bare) %.2fx\n\n", logic, growth)
	b.ReportMetric(logic, "logic-cpu-ratio")
	b.ReportMetric(growth, "growth-cpu-ratio")
}

// benchPodSpec is the spec of the benchmark's pods: one container with
// requests and limits.
func benchPodSpec() corev1.PodSpec {
	return corev1.PodSpec{Containers: []corev1.Container{{
		Name: "app", Image: "registry.example/app:1.0",
		Resources: corev1.ResourceRequirements{
			Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("64Mi")},
			Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("200m"), corev1.ResourceMemory: resource.MustParse("128Mi")},
		},
	}}}
}

// admittedSpec returns the spec the default chain makes of benchPodSpec,
// from a dry-run create on s, and checks that the chain added what the
// bare-same-pod side is meant to carry.
func admittedSpec(b *testing.B, s *framework.Server) *corev1.PodSpec {
	b.Helper()
	c, err := rest.NewClient(&rest.Config{Host: s.URL, QPS: -1})
	if err != nil {
		b.Fatal(err)
	}
	p := &corev1.Pod{
		TypeMeta:   meta.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: meta.ObjectMeta{Name: "adm-probe", Namespace: "adm-bench", Labels: map[string]string{"app": "bench"}},
		Spec:       benchPodSpec(),
	}
	out := &corev1.Pod{}
	if err := c.Post().Version("v1").Namespace("adm-bench").Resource("pods").Param("dryRun", "All").Body(p).Do(context.Background()).Into(out); err != nil {
		b.Fatal(err)
	}
	sp := &out.Spec
	if len(sp.Volumes) != 1 || len(sp.Containers[0].VolumeMounts) != 1 || len(sp.Tolerations) != 2 || sp.Priority == nil || sp.ServiceAccountName == "" {
		b.Fatalf("the default chain did not add the expected fields: %+v", sp)
	}
	return sp
}

// createPods creates pods lo..hi-1 named after side, with the spec spec
// returns.
func createPods(c *rest.Client, side string, spec func() corev1.PodSpec, lo, hi int) result {
	return run(admissionClients, hi-lo, scenarioLimit, func(ctx context.Context, j int) error {
		p := &corev1.Pod{
			TypeMeta:   meta.TypeMeta{APIVersion: "v1", Kind: "Pod"},
			ObjectMeta: meta.ObjectMeta{Name: fmt.Sprintf("adm-%s-%06d", side, lo+j), Namespace: "adm-bench", Labels: map[string]string{"app": "bench"}},
			Spec:       spec(),
		}
		return c.Post().Version("v1").Namespace("adm-bench").Resource("pods").Body(p).Do(ctx).Into(&corev1.Pod{})
	})
}

// registerNoopWebhook registers a validating webhook on pod creates that
// admits everything, and waits until the server calls it.
func registerNoopWebhook(b *testing.B, s *framework.Server) {
	hook := webhooktest.Start(b, webhooktest.Allow)
	cfg := map[string]any{
		"apiVersion": "admissionregistration.platform.io/v1", "kind": "ValidatingWebhookConfiguration",
		"metadata": map[string]any{"name": "noop"},
		"webhooks": []any{map[string]any{
			"name":         "noop.bench.example.com",
			"clientConfig": map[string]any{"url": hook.URL, "caBundle": hook.CABundle},
			"rules": []any{map[string]any{"operations": []string{"CREATE"}, "apiGroups": []string{""},
				"apiVersions": []string{"v1"}, "resources": []string{"pods"}}},
			"sideEffects": "None", "admissionReviewVersions": []string{"v1"},
		}},
	}
	s.Do(b, http.MethodPost, "/apis/admissionregistration.platform.io/v1/validatingwebhookconfigurations", cfg).Expect(b, http.StatusCreated)
	probe := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"probe"},"spec":{"containers":[{"name":"c","image":"i"}]}}`
	framework.Eventually(b, 10*time.Second, "the server calls the no-op webhook", func() bool {
		s.Do(b, http.MethodPost, "/api/v1/namespaces/adm-bench/pods?dryRun=All", probe).Expect(b, http.StatusCreated)
		return len(hook.Requests()) > 0
	})
}
