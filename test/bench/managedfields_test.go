package bench

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/rest"

	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/test/integration/framework"
)

// fieldsClients and fieldsWrites size BenchmarkManagedFieldsCost.
const (
	fieldsClients   = 64
	fieldsWrites    = 3000
	fieldsNamespace = "mf-bench"
)

// BenchmarkManagedFieldsCost measures what keeping metadata.managedFields
// costs a write (issue 18): pod creates, then updates (a merge patch of a
// label on each pod), at 64 clients through the staging client, against
// two in-process API servers that differ only in the ServerSideApply gate:
// "untracked" has it off (no managedFields), "tracked" on (the default).
func BenchmarkManagedFieldsCost(b *testing.B) {
	configs := []struct {
		name string
		opts framework.Option
	}{
		{"untracked", func(o *options.Options) {
			if err := o.Features.Set(string(options.ServerSideApply) + "=false"); err != nil {
				b.Fatal(err)
			}
		}},
		{"tracked", func(*options.Options) {}},
	}
	var creates, updates []writeSide
	for _, c := range configs {
		s := startServer(b, c.opts)
		s.Do(b, http.MethodPost, "/api/v1/namespaces", `{"metadata":{"name":"`+fieldsNamespace+`"}}`).Expect(b, http.StatusCreated)
		client, err := rest.NewClient(&rest.Config{Host: s.URL, QPS: -1})
		if err != nil {
			b.Fatal(err)
		}
		creates = append(creates, writeSide{name: c.name, write: func(lo, hi int) result { return createFieldPods(client, c.name, lo, hi) }})
		updates = append(updates, writeSide{name: c.name, write: func(lo, hi int) result { return labelFieldPods(client, c.name, lo, hi) }})
	}
	compareWrites(b, fmt.Sprintf("managedFields cost, pod creates at %d clients", fieldsClients), fieldsWrites, creates)
	compareWrites(b, fmt.Sprintf("managedFields cost, pod updates (merge patch of a label) at %d clients", fieldsClients), fieldsWrites, updates)
}

func fieldPodName(side string, i int) string { return fmt.Sprintf("mf-%s-%06d", side, i) }

// createFieldPods creates pods lo..hi-1 named after side.
func createFieldPods(c *rest.Client, side string, lo, hi int) result {
	return run(fieldsClients, hi-lo, scenarioLimit, func(ctx context.Context, j int) error {
		p := &corev1.Pod{
			TypeMeta:   meta.TypeMeta{APIVersion: "v1", Kind: "Pod"},
			ObjectMeta: meta.ObjectMeta{Name: fieldPodName(side, lo+j), Namespace: fieldsNamespace, Labels: map[string]string{"app": "bench"}},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{
				Name: "app", Image: "registry.example/app:1.0",
				Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080}},
				Env:   []corev1.EnvVar{{Name: "MODE", Value: "bench"}, {Name: "LEVEL", Value: "info"}},
			}}},
		}
		return c.Post().Version("v1").Namespace(fieldsNamespace).Resource("pods").Body(p).Do(ctx).Into(&corev1.Pod{})
	})
}

// labelFieldPods sets a label on pods lo..hi-1, created before by createFieldPods.
func labelFieldPods(c *rest.Client, side string, lo, hi int) result {
	return run(fieldsClients, hi-lo, scenarioLimit, func(ctx context.Context, j int) error {
		return c.Patch(rest.MergePatchType).Version("v1").Namespace(fieldsNamespace).Resource("pods").Name(fieldPodName(side, lo+j)).
			Body(`{"metadata":{"labels":{"tier":"updated"}}}`).Do(ctx).Into(&corev1.Pod{})
	})
}

// latencyWrites is how many changes each side of BenchmarkApplyLatency makes.
const latencyWrites = 300

// BenchmarkApplyLatency compares server-side apply's latency with a merge
// patch making the same change (issue 18): one client, one at a time,
// each write changing a Deployment's image, on its own Deployment per
// side, against one server with managedFields kept.
func BenchmarkApplyLatency(b *testing.B) {
	s := startServer(b)
	client, err := rest.NewClient(&rest.Config{Host: s.URL, QPS: -1})
	if err != nil {
		b.Fatal(err)
	}
	const ns = "default"
	applyType := rest.PatchType("application/apply-patch+yaml")
	config := func(name string, i int) string {
		return fmt.Sprintf(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":%q},"spec":{"replicas":2,"selector":{"matchLabels":{"app":%[1]q}},"template":{"metadata":{"labels":{"app":%[1]q}},"spec":{"containers":[{"name":"app","image":"registry.example/app:%d","ports":[{"containerPort":8080}]}]}}}}`, name, i)
	}
	deployments := func() *rest.Request {
		return client.Patch(applyType).Group("apps").Version("v1").Namespace(ns).Resource("deployments").Param("fieldManager", "bench")
	}
	for _, name := range []string{"by-apply", "by-merge"} {
		if err := deployments().Name(name).Body(config(name, 0)).Do(context.Background()).Into(&appsv1.Deployment{}); err != nil {
			b.Fatal(err)
		}
	}
	sides := []writeSide{
		{name: "strategic-merge", write: func(lo, hi int) result {
			return run(1, hi-lo, scenarioLimit, func(ctx context.Context, j int) error {
				patch := fmt.Sprintf(`{"spec":{"template":{"spec":{"containers":[{"name":"app","image":"registry.example/app:%d"}]}}}}`, lo+j+1)
				return client.Patch(rest.StrategicMergePatchType).Group("apps").Version("v1").Namespace(ns).Resource("deployments").Name("by-merge").
					Param("fieldManager", "bench").Body(patch).Do(ctx).Into(&appsv1.Deployment{})
			})
		}},
		{name: "apply", write: func(lo, hi int) result {
			return run(1, hi-lo, scenarioLimit, func(ctx context.Context, j int) error {
				return deployments().Name("by-apply").Body(config("by-apply", lo+j+1)).Do(ctx).Into(&appsv1.Deployment{})
			})
		}},
	}
	compareWrites(b, "apply latency next to a strategic merge patch of the same change (a Deployment's image), one client", latencyWrites, sides)
}
