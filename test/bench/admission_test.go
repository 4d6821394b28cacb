package bench

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/api/resource"
	"platform.io/client/rest"

	"platform.io/platform/pkg/apiserver/admission/plugins"
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
// "bare" has every plugin off, "default" the default-on plugins. Pods are
// what most plugins act on; the namespace has its default service account
// and no LimitRange or ResourceQuota.
func BenchmarkAdmissionCost(b *testing.B) {
	configs := []admissionSide{
		{"bare", func(o *options.Options) { o.Admission.Disable = plugins.DefaultOn() }},
		// The default chain includes ServiceAccount, which the test
		// framework turns off unless asked.
		{"default", framework.EnableAdmission("ServiceAccount")},
	}
	var sides []writeSide
	for _, c := range configs {
		s := startServer(b, c.opts)
		s.Do(b, http.MethodPost, "/api/v1/namespaces", `{"metadata":{"name":"adm-bench"}}`).Expect(b, http.StatusCreated)
		s.Do(b, http.MethodPost, "/api/v1/namespaces/adm-bench/serviceaccounts", `{"metadata":{"name":"default"}}`)
		client, err := rest.NewClient(&rest.Config{Host: s.URL, QPS: -1})
		if err != nil {
			b.Fatal(err)
		}
		sides = append(sides, writeSide{name: c.name, write: func(lo, hi int) result { return createPods(client, c.name, lo, hi) }})
	}
	compareWrites(b, fmt.Sprintf("admission cost, pod creates at %d clients", admissionClients), admissionWrites, sides)
}

// createPods creates pods lo..hi-1 named after side.
func createPods(c *rest.Client, side string, lo, hi int) result {
	return run(admissionClients, hi-lo, scenarioLimit, func(ctx context.Context, j int) error {
		p := &corev1.Pod{
			TypeMeta:   meta.TypeMeta{APIVersion: "v1", Kind: "Pod"},
			ObjectMeta: meta.ObjectMeta{Name: fmt.Sprintf("adm-%s-%06d", side, lo+j), Namespace: "adm-bench", Labels: map[string]string{"app": "bench"}},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{
				Name: "app", Image: "registry.example/app:1.0",
				Resources: corev1.ResourceRequirements{
					Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("64Mi")},
					Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("200m"), corev1.ResourceMemory: resource.MustParse("128Mi")},
				},
			}}},
		}
		return c.Post().Version("v1").Namespace("adm-bench").Resource("pods").Body(p).Do(ctx).Into(&corev1.Pod{})
	})
}
