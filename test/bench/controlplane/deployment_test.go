package controlplane

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/api/resource"
	"platform.io/client/client"
	"platform.io/client/rest"
)

const (
	replicas = 1000
	nodes    = 100
	// stepLimit bounds each measured step.
	stepLimit = 5 * time.Minute
)

// BenchmarkDeployment1000 measures, on 100 simulated nodes: a 1,000-replica
// Deployment from creation to every pod Running, a rolling update of it to
// every pod Running the new template, and its deletion with Foreground
// propagation until the Deployment is gone (its ReplicaSets and pods
// first). The baseline is the API server's own rate of pod writes from one
// client with 16 goroutines: creating 1,000 pods and deleting them.
func BenchmarkDeployment1000(b *testing.B) {
	master := controlPlane(b, nodes)
	rc, err := rest.NewClient(&rest.Config{Host: master, QPS: -1})
	if err != nil {
		b.Fatal(err)
	}
	set := client.NewSet(rc)
	ctx := context.Background()
	waitNodes(b, set)

	for range b.N {
		createRate, deleteRate := baseline(b, set)
		b.ReportMetric(createRate, "api-pod-creates/s")

		start := time.Now()
		dep := deployment("nginx:1.25")
		if _, err := set.Deployments.Namespace("default").Create(ctx, dep, meta.WriteOptions{}); err != nil {
			b.Fatal(err)
		}
		waitPods(b, set, "nginx:1.25")
		up := time.Since(start)
		report(b, "create", up, createRate)

		start = time.Now()
		patch := []byte(`{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"nginx:1.26"}]}}}}`)
		if _, err := set.Deployments.Namespace("default").Patch(ctx, "bench", rest.StrategicMergePatchType, patch, meta.WriteOptions{}); err != nil {
			b.Fatal(err)
		}
		waitPods(b, set, "nginx:1.26")
		report(b, "rollout", time.Since(start), createRate)

		start = time.Now()
		fg := meta.DeletePropagationForeground
		if err := set.Deployments.Namespace("default").Delete(ctx, "bench", &meta.DeleteOptions{PropagationPolicy: &fg}); err != nil {
			b.Fatal(err)
		}
		waitGone(b, set)
		report(b, "foreground-delete", time.Since(start), deleteRate)
	}
}

// report prints one step as pods per second and as a fraction of the API
// server's pod write rate.
func report(b *testing.B, step string, took time.Duration, apiRate float64) {
	rate := replicas / took.Seconds()
	b.ReportMetric(took.Seconds(), step+"-s")
	b.ReportMetric(rate/apiRate, step+"/api-rate")
	b.Logf("%-18s %6.1fs  %7.1f pods/s  %.2f of the API server's write rate (%.0f/s)", step, took.Seconds(), rate, rate/apiRate, apiRate)
}

func deployment(image string) *appsv1.Deployment {
	n := int32(replicas)
	labels := map[string]string{"app": "bench"}
	return &appsv1.Deployment{
		ObjectMeta: meta.ObjectMeta{Name: "bench"},
		Spec: appsv1.DeploymentSpec{
			Replicas: &n,
			Selector: &meta.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: meta.ObjectMeta{Labels: labels},
				Spec:       podSpec(image),
			},
		},
	}
}

// podSpec is one small container whose process exits within a second of
// SIGTERM: the simulated nodes confirm a deletion once the grace period
// is over, and the default 30s would measure only that wait.
func podSpec(image string) corev1.PodSpec {
	grace := int64(1)
	return corev1.PodSpec{TerminationGracePeriodSeconds: &grace, Containers: []corev1.Container{{
		Name: "web", Image: image,
		Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
			corev1.ResourceCPU: resource.MustParse("10m"), corev1.ResourceMemory: resource.MustParse("16Mi"),
		}},
	}}}
}

// baseline creates and then deletes 1,000 bare pods (already bound, so
// nothing else acts on them) and returns both rates.
func baseline(b *testing.B, set *client.Set) (creates, deletes float64) {
	ctx := context.Background()
	pods := set.Pods.Namespace("default")
	run := func(op func(i int) error) float64 {
		start := time.Now()
		var wg sync.WaitGroup
		next := make(chan int, replicas)
		for i := range replicas {
			next <- i
		}
		close(next)
		for range 16 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range next {
					if err := op(i); err != nil {
						b.Error(err)
						return
					}
				}
			}()
		}
		wg.Wait()
		return replicas / time.Since(start).Seconds()
	}
	zero := int64(0)
	creates = run(func(i int) error {
		p := &corev1.Pod{ObjectMeta: meta.ObjectMeta{Name: fmt.Sprintf("baseline-%d", i)}, Spec: podSpec("nginx:1.25")}
		p.Spec.NodeName = "baseline-node-that-does-not-exist"
		_, err := pods.Create(ctx, p, meta.WriteOptions{})
		return err
	})
	deletes = run(func(i int) error {
		return pods.Delete(ctx, fmt.Sprintf("baseline-%d", i), &meta.DeleteOptions{GracePeriodSeconds: &zero})
	})
	return creates, deletes
}

func waitNodes(b *testing.B, set *client.Set) {
	poll(b, "nodes registered", func() (bool, string) {
		l, err := set.Nodes.List(context.Background(), meta.ListOptions{ResourceVersion: "0"})
		if err != nil {
			return false, err.Error()
		}
		return len(l.Items) == nodes, fmt.Sprintf("%d nodes", len(l.Items))
	})
}

// waitPods waits until exactly replicas pods of the Deployment exist, all
// Running the image.
func waitPods(b *testing.B, set *client.Set, image string) {
	poll(b, "pods running "+image, func() (bool, string) {
		l, err := set.Pods.Namespace("default").List(context.Background(), meta.ListOptions{LabelSelector: "app=bench", ResourceVersion: "0"})
		if err != nil {
			return false, err.Error()
		}
		running := 0
		for i := range l.Items {
			p := &l.Items[i]
			if p.Status.Phase == corev1.PodRunning && p.Spec.Containers[0].Image == image && p.DeletionTimestamp == nil {
				running++
			}
		}
		return running == replicas && len(l.Items) == replicas, fmt.Sprintf("%d of %d pods running %s", running, len(l.Items), image)
	})
}

func waitGone(b *testing.B, set *client.Set) {
	poll(b, "deployment gone", func() (bool, string) {
		_, err := set.Deployments.Namespace("default").Get(context.Background(), "bench", meta.GetOptions{})
		if err == nil {
			return false, "still there"
		}
		l, err := set.Pods.Namespace("default").List(context.Background(), meta.ListOptions{LabelSelector: "app=bench"})
		if err != nil {
			return false, err.Error()
		}
		return len(l.Items) == 0, fmt.Sprintf("%d pods left", len(l.Items))
	})
}

func poll(b *testing.B, what string, check func() (bool, string)) {
	deadline := time.Now().Add(stepLimit)
	last := ""
	for time.Now().Before(deadline) {
		var ok bool
		if ok, last = check(); ok {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
	b.Fatalf("%s: not within %s (%s)", what, stepLimit, last)
}
