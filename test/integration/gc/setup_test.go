package gc

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/client"

	"platform.io/platform/pkg/controller"
	"platform.io/platform/pkg/controller/garbagecollector"
	"platform.io/platform/pkg/controller/namespace"
	"platform.io/platform/pkg/controller/serviceaccount"
	"platform.io/platform/test/integration/framework"
)

// env is a running API server with the three loops.
type env struct {
	ctx context.Context
	set *client.Set
	dyn *client.Dynamic
	srv *framework.Server
}

// discoveryPeriod is the garbage collector's discovery period in these
// tests (30s by default): a custom resource defined after it started is
// watched within it.
const discoveryPeriod = 500 * time.Millisecond

// start runs an API server and the given loops against it until the test
// ends.
func start(t *testing.T, descs ...controller.Descriptor) env {
	t.Helper()
	s := framework.Start(t)
	d := s.Deps(t, "controller-manager")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	c := controller.Context{Deps: d}
	var loops []func(context.Context) error
	for _, desc := range descs {
		var opts controller.Options
		if desc.NewOptions != nil {
			opts = desc.NewOptions()
		}
		if o, ok := opts.(*garbagecollector.Options); ok {
			o.DiscoveryPeriod = discoveryPeriod
		}
		r, err := desc.New(c, opts)
		if err != nil {
			t.Fatalf("%s: %v", desc.Name, err)
		}
		loops = append(loops, r.Run)
	}
	d.Informers.Start(ctx)
	if !d.Informers.WaitForCacheSync(ctx) {
		t.Fatal("informers did not sync")
	}
	done := make(chan error, len(loops))
	for _, run := range loops {
		go func() { done <- run(ctx) }()
	}
	t.Cleanup(func() {
		cancel()
		for range loops {
			if err := <-done; err != nil {
				t.Errorf("loop: %v", err)
			}
		}
	})
	return env{ctx: ctx, set: d.Clients, dyn: client.NewDynamic(d.REST), srv: s}
}

func allLoops() []controller.Descriptor {
	return []controller.Descriptor{garbagecollector.Descriptor(), namespace.Descriptor(), serviceaccount.Descriptor()}
}

// eventually polls cond every 20ms until it holds or 30s pass.
func eventually(t *testing.T, what string, cond func() (bool, error)) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ok, err := cond()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 30s (last error %v)", what, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func ownerRef(apiVersion, kind, name string, uid meta.UID, block bool) meta.OwnerReference {
	return meta.OwnerReference{APIVersion: apiVersion, Kind: kind, Name: name, UID: uid, BlockOwnerDeletion: &block}
}

func configMap(ns, name string, owners ...meta.OwnerReference) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: meta.ObjectMeta{Namespace: ns, Name: name, OwnerReferences: owners},
		Data: map[string]string{"k": "v"}}
}

func pod(ns, name string, owners ...meta.OwnerReference) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: meta.ObjectMeta{Namespace: ns, Name: name, OwnerReferences: owners},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox"}}}}
}

func createNamespace(t *testing.T, e env, name string) {
	t.Helper()
	if _, err := e.set.Namespaces.Create(e.ctx, &corev1.Namespace{ObjectMeta: meta.ObjectMeta{Name: name}}, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
}

func mustCreate[T any, PT client.ObjectPtr[T]](t *testing.T, e env, c *client.Client[T, PT], obj PT) PT {
	t.Helper()
	m := obj.GetObjectMeta()
	out, err := c.Namespace(m.Namespace).Create(e.ctx, obj, meta.WriteOptions{})
	if err != nil {
		t.Fatalf("create %s/%s: %v", m.Namespace, m.Name, err)
	}
	return out
}

// gone reports whether a Get of the object says NotFound.
func gone[T any, PT client.ObjectPtr[T]](e env, c *client.Client[T, PT], ns, name string) (bool, error) {
	_, err := c.Namespace(ns).Get(e.ctx, name, meta.GetOptions{})
	if err == nil {
		return false, nil
	}
	if isNotFound(err) {
		return true, nil
	}
	return false, fmt.Errorf("get %s/%s: %w", ns, name, err)
}
