package gc

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/rest"

	"platform.io/platform/pkg/controller/serviceaccount"
)

// fill creates n objects in ns, a third each configmaps, secrets and pods,
// with 16 clients.
func fill(t *testing.T, e env, ns string, n int) {
	t.Helper()
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				if err := createOne(e.ctx, e, ns, i); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

func createOne(ctx context.Context, e env, ns string, i int) error {
	name := fmt.Sprintf("obj-%05d", i)
	var err error
	switch i % 3 {
	case 0:
		_, err = e.set.ConfigMaps.Namespace(ns).Create(ctx, configMap(ns, name), meta.WriteOptions{})
	case 1:
		s := &corev1.Secret{ObjectMeta: meta.ObjectMeta{Namespace: ns, Name: name}, Data: map[string][]byte{"k": []byte("v")}}
		_, err = e.set.Secrets.Namespace(ns).Create(ctx, s, meta.WriteOptions{})
	default:
		_, err = e.set.Pods.Namespace(ns).Create(ctx, pod(ns, name), meta.WriteOptions{})
	}
	if err != nil {
		return fmt.Errorf("create %s/%s: %w", ns, name, err)
	}
	return nil
}

// TestNamespaceDeletion deletes a namespace holding 2,000 objects of three
// kinds, some owned by others (the garbage collector runs too), and waits
// for the namespace itself to go.
func TestNamespaceDeletion(t *testing.T) {
	e := start(t, allLoops()...)
	const ns, n = "crowded", 2000
	createNamespace(t, e, ns)
	fill(t, e, ns, n)
	owner := mustCreate(t, e, e.set.ConfigMaps, configMap(ns, "owner"))
	mustCreate(t, e, e.set.ConfigMaps, configMap(ns, "owned", cmOwner(owner, true)))
	began := time.Now()
	if err := e.set.Namespaces.Delete(e.ctx, ns, nil); err != nil {
		t.Fatal(err)
	}
	eventually(t, "namespace removed", func() (bool, error) { return gone(e, e.set.Namespaces, "", ns) })
	t.Logf("namespace of %d objects removed in %v", n+2, time.Since(began))
	for _, c := range []struct {
		what  string
		count func() (int, error)
	}{
		{"configmaps", func() (int, error) {
			l, err := e.set.ConfigMaps.Namespace(ns).List(e.ctx, meta.ListOptions{})
			return lenOr(l != nil, func() int { return len(l.Items) }), err
		}},
		{"pods", func() (int, error) {
			l, err := e.set.Pods.Namespace(ns).List(e.ctx, meta.ListOptions{})
			return lenOr(l != nil, func() int { return len(l.Items) }), err
		}},
	} {
		if got, err := c.count(); err != nil || got != 0 {
			t.Errorf("%s left in the removed namespace: %d (%v)", c.what, got, err)
		}
	}
}

func lenOr(ok bool, f func() int) int {
	if !ok {
		return -1
	}
	return f()
}

// TestNamespaceWaitsForFinalizers: content held by a finalizer keeps the
// namespace Terminating, with conditions saying so, until it is released.
func TestNamespaceWaitsForFinalizers(t *testing.T) {
	e := start(t, allLoops()...)
	const ns = "held"
	createNamespace(t, e, ns)
	cm := configMap(ns, "held")
	cm.Finalizers = []string{"example.com/hold"}
	mustCreate(t, e, e.set.ConfigMaps, cm)
	if err := e.set.Namespaces.Delete(e.ctx, ns, nil); err != nil {
		t.Fatal(err)
	}
	want := map[corev1.NamespaceConditionType]string{
		corev1.NamespaceContentRemaining:    "Some resources are remaining: configmaps. has 1 resource instances",
		corev1.NamespaceFinalizersRemaining: "Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances",
	}
	eventually(t, "conditions report the held content", func() (bool, error) {
		got, err := e.set.Namespaces.Get(e.ctx, ns, meta.GetOptions{})
		if err != nil {
			return false, err
		}
		n := 0
		for _, c := range got.Status.Conditions {
			if msg, ok := want[c.Type]; ok && c.Status == corev1.ConditionTrue && c.Message == msg {
				n++
			}
		}
		return n == len(want) && got.Status.Phase == corev1.NamespaceTerminating, nil
	})
	patch := []byte(`{"metadata":{"finalizers":null}}`)
	if _, err := e.set.ConfigMaps.Namespace(ns).Patch(e.ctx, "held", rest.MergePatchType, patch, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "namespace removed", func() (bool, error) { return gone(e, e.set.Namespaces, "", ns) })
}

// TestDefaultServiceAccount: every namespace gets a "default" account,
// created again after it is deleted.
func TestDefaultServiceAccount(t *testing.T) {
	e := start(t, serviceaccount.Descriptor())
	for _, ns := range []string{"team-a", "team-b"} {
		createNamespace(t, e, ns)
	}
	for _, ns := range []string{"default", "team-a", "team-b"} {
		eventually(t, "default account in "+ns, func() (bool, error) {
			ok, err := gone(e, e.set.ServiceAccounts, ns, serviceaccount.DefaultName)
			return !ok && err == nil, err
		})
	}
	first, err := e.set.ServiceAccounts.Namespace("team-a").Get(e.ctx, "default", meta.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.set.ServiceAccounts.Namespace("team-a").Delete(e.ctx, "default", nil); err != nil {
		t.Fatal(err)
	}
	eventually(t, "default account created again", func() (bool, error) {
		sa, err := e.set.ServiceAccounts.Namespace("team-a").Get(e.ctx, "default", meta.GetOptions{})
		return err == nil && sa.UID != first.UID, nil
	})
}
