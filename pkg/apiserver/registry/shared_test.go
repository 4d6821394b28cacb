package registry_test

import (
	"context"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/registry/core/configmap"
	"platform.io/platform/pkg/apiserver/storage/cacher"
	"platform.io/platform/pkg/apiserver/storage/etcd3"
	"platform.io/platform/pkg/apiserver/storage/etcdtest"
)

// cachedConfigMaps returns a configmaps store over a running watch cache.
func cachedConfigMaps(t *testing.T) *registry.Store {
	t.Helper()
	c, prefix := etcdtest.Client(t)
	base := etcd3.New(zap.NewNop(), c, prometheus.NewRegistry())
	r := configmap.Resource()
	decoder := registry.NewStore(r, registry.Config{Storage: base, Prefix: prefix})
	ch := cacher.New(zap.NewNop(), cacher.Config{Backend: base, Prefix: registry.StoragePrefix(prefix, r), Attrs: decoder.Attrs})
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go ch.Run(ctx)
	return registry.NewStore(r, registry.Config{Storage: ch, Prefix: prefix})
}

// TestSharedReads: GetShared and List.SharedObjects decode a version once
// and hand every reader the same object, and a write through the store is
// seen by the very next read, as is a delete.
func TestSharedReads(t *testing.T) {
	s := cachedConfigMaps(t)
	ctx := context.Background()
	if _, err := s.Create(ctx, cm("a", nil), false); err != nil {
		t.Fatal(err)
	}
	get := func() *corev1.ConfigMap {
		t.Helper()
		obj, err := s.GetShared(ctx, "ns", "a")
		if err != nil {
			t.Fatal(err)
		}
		return obj.(*corev1.ConfigMap)
	}
	list := func() []meta.Object {
		t.Helper()
		l, err := s.ListCached(ctx, "ns")
		if err != nil {
			t.Fatal(err)
		}
		objs, err := l.SharedObjects()
		if err != nil {
			t.Fatal(err)
		}
		return objs
	}
	first := get()
	if again := get(); again != first {
		t.Error("two reads of one version decoded it twice")
	}
	if objs := list(); len(objs) != 1 || objs[0] != first {
		t.Errorf("list of one version: %v, want the object GetShared returned", objs)
	}

	if _, _, err := s.Update(ctx, "ns", "a", func(_ context.Context, cur meta.Object) (meta.Object, error) {
		c := cur.(*corev1.ConfigMap)
		c.Data = map[string]string{"k": "v2"}
		return c, nil
	}, registry.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := get(); got == first || got.Data["k"] != "v2" {
		t.Errorf("read after an update: data %v, want the new version", got.Data)
	}
	if first.Data["k"] != "v" {
		t.Errorf("the shared old version changed: %v", first.Data)
	}
	if objs := list(); len(objs) != 1 || objs[0].(*corev1.ConfigMap).Data["k"] != "v2" {
		t.Errorf("list after an update: %v", objs)
	}

	if _, err := s.Delete(ctx, "ns", "a", &meta.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetShared(ctx, "ns", "a"); !apierrors.IsNotFound(err) {
		t.Errorf("read after a delete: %v, want NotFound", err)
	}
	if objs := list(); len(objs) != 0 {
		t.Errorf("list after a delete: %d objects", len(objs))
	}
}
