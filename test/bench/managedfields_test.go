package bench

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
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
// in-process API servers that differ only in the ServerSideApply gate:
// "untracked" has it off (no managedFields), "tracked" on (the default).
// A third side, "carried", has the gate off too but creates each pod with
// the managedFields the tracked server gives one (stored as sent, and kept
// by the patches): it pays for the bytes managedFields add to every
// encoding and decoding of the object, but not for tracking them, so it
// splits the tracked side's cost between the two. The servers share an
// etcd process of the benchmark's own, as deployed servers use an etcd
// cluster, and each side's CPU time is the test process's (servers and
// clients) and etcd's, also shown apart.
func BenchmarkManagedFieldsCost(b *testing.B) {
	gateOff := func(o *options.Options) {
		if err := o.Features.Set(string(options.ServerSideApply) + "=false"); err != nil {
			b.Fatal(err)
		}
	}
	configs := []struct {
		name string
		opts framework.Option
	}{
		{"untracked", gateOff},
		{"carried", gateOff},
		{"tracked", func(*options.Options) {}},
	}
	// An etcd of its own, as a deployment's API server has, so that its
	// CPU time is measured apart from the servers' and the clients'.
	endpoints, etcdPID, etcdMode := ownEtcd(b, "etcd runs in the test process, which mixes its CPU time with the servers'")
	clients := map[string]*rest.Client{}
	for _, c := range configs {
		s := startSideServer(b, c.name, c.opts, framework.EtcdServers(endpoints...))
		s.Do(b, http.MethodPost, "/api/v1/namespaces", `{"metadata":{"name":"`+fieldsNamespace+`"}}`).Expect(b, http.StatusCreated)
		client, err := rest.NewClient(&rest.Config{Host: s.URL, QPS: -1})
		if err != nil {
			b.Fatal(err)
		}
		clients[c.name] = client
	}
	// What the tracked server records for one of the pods.
	probe := &corev1.Pod{}
	if err := clients["tracked"].Post().Version("v1").Namespace(fieldsNamespace).Resource("pods").Body(fieldPod("mf-probe", nil)).Do(context.Background()).Into(probe); err != nil {
		b.Fatal(err)
	}
	if len(probe.ManagedFields) == 0 {
		b.Fatal("the tracked server kept no managedFields")
	}
	var creates, updates []writeSide
	for _, c := range configs {
		client, side := clients[c.name], c.name
		var managed []meta.ManagedFieldsEntry
		if side == "carried" {
			managed = probe.ManagedFields
		}
		creates = append(creates, writeSide{name: side, write: func(lo, hi int) result { return createFieldPods(client, side, managed, lo, hi) }})
		updates = append(updates, writeSide{name: side, write: func(lo, hi int) result { return labelFieldPods(client, side, lo, hi) }})
	}
	if list := os.Getenv(envSides); list != "" {
		// A CPU profile of one side: the sides named, besides untracked.
		keep := func(sd writeSide) bool {
			return sd.name != "untracked" && !slices.Contains(strings.Split(list, ","), sd.name)
		}
		creates, updates = slices.DeleteFunc(creates, keep), slices.DeleteFunc(updates, keep)
	}
	compareWritesEtcd(b, fmt.Sprintf("managedFields cost, pod creates at %d clients, etcd: %s", fieldsClients, etcdMode), fieldsWrites, creates, etcdPID)
	compareWritesEtcd(b, fmt.Sprintf("managedFields cost, pod updates (merge patch of a label) at %d clients, etcd: %s", fieldsClients, etcdMode), fieldsWrites, updates, etcdPID)
}

func fieldPodName(side string, i int) string { return fmt.Sprintf("mf-%s-%06d", side, i) }

// fieldPod is the benchmark's pod, with managed as its managedFields.
func fieldPod(name string, managed []meta.ManagedFieldsEntry) *corev1.Pod {
	return &corev1.Pod{
		TypeMeta: meta.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: meta.ObjectMeta{Name: name, Namespace: fieldsNamespace, Labels: map[string]string{"app": "bench"},
			ManagedFields: managed},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{
			Name: "app", Image: "registry.example/app:1.0",
			Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080}},
			Env:   []corev1.EnvVar{{Name: "MODE", Value: "bench"}, {Name: "LEVEL", Value: "info"}},
		}}},
	}
}

// createFieldPods creates pods lo..hi-1 named after side, each with
// managed as its managedFields.
func createFieldPods(c *rest.Client, side string, managed []meta.ManagedFieldsEntry, lo, hi int) result {
	return run(fieldsClients, hi-lo, scenarioLimit, func(ctx context.Context, j int) error {
		return c.Post().Version("v1").Namespace(fieldsNamespace).Resource("pods").Body(fieldPod(fieldPodName(side, lo+j), managed)).Do(ctx).Into(&corev1.Pod{})
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
