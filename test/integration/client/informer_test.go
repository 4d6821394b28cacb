package client_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/labels"
	"platform.io/client/api/meta"
	"platform.io/client/client"
	"platform.io/client/informer"
	"platform.io/client/rest"

	"platform.io/platform/test/integration/framework"
)

// TestInformerOverAPIServer: a shared informer fed by a typed client lists
// and watches the real API server; handlers see adds, updates and deletes
// in order, and the lister answers from the cache.
func TestInformerOverAPIServer(t *testing.T) {
	s := framework.Start(t)
	rc, err := rest.NewClient(&rest.Config{Host: s.URL, QPS: -1})
	if err != nil {
		t.Fatal(err)
	}
	set := client.NewSet(rc)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cms := set.ConfigMaps.Namespace("default")
	for i := 0; i < 3; i++ {
		cm := &corev1.ConfigMap{ObjectMeta: meta.ObjectMeta{Name: fmt.Sprintf("pre-%d", i), Labels: map[string]string{"app": "x"}}}
		if _, err := cms.Create(ctx, cm, meta.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	f := informer.NewFactory(informer.Options{})
	inf, err := informer.For(f, "configmaps", set.ConfigMaps.ListWatch())
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen []string
	record := func(what string, cm *corev1.ConfigMap) {
		if cm.Namespace != "default" {
			return
		}
		mu.Lock()
		seen = append(seen, what+" "+cm.Name)
		mu.Unlock()
	}
	if _, err := inf.AddEventHandler(informer.ResourceEventHandler[*corev1.ConfigMap]{
		OnAdd:    func(cm *corev1.ConfigMap, _ bool) { record("add", cm) },
		OnUpdate: func(_, cm *corev1.ConfigMap) { record("update", cm) },
		OnDelete: func(cm *corev1.ConfigMap) { record("delete", cm) },
	}); err != nil {
		t.Fatal(err)
	}
	f.Start(ctx)
	if !f.WaitForCacheSync(ctx) {
		t.Fatal("informer did not sync")
	}
	lister, err := informer.ListerFor[*corev1.ConfigMap](f, "configmaps")
	if err != nil {
		t.Fatal(err)
	}
	// The first list is served with resourceVersion 0 (any freshness); an
	// object it missed arrives through the watch a moment later.
	sel, _ := labels.Parse("app=x")
	for start := time.Now(); ; time.Sleep(20 * time.Millisecond) {
		got, err := lister.Namespace("default").List(sel)
		if err == nil && len(got) == 3 {
			break
		}
		if time.Since(start) > 10*time.Second {
			t.Fatalf("lister: %d items, %v", len(got), err)
		}
	}
	live := &corev1.ConfigMap{ObjectMeta: meta.ObjectMeta{Name: "live"}}
	created, err := cms.Create(ctx, live, meta.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	created.Data = map[string]string{"k": "v"}
	if _, err := cms.Update(ctx, created, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := cms.Delete(ctx, "live", nil); err != nil {
		t.Fatal(err)
	}
	want := []string{"add pre-0", "add pre-1", "add pre-2", "add live", "update live", "delete live"}
	deadline := time.Now().Add(20 * time.Second)
	for {
		mu.Lock()
		got := fmt.Sprint(seen)
		mu.Unlock()
		if got == fmt.Sprint(want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("handler saw %s, want %v", got, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
