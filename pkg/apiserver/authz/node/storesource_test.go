package node

import (
	"context"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/authz"
	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/registry/core/pod"
	"platform.io/platform/pkg/apiserver/storage/etcd3"
	"platform.io/platform/pkg/apiserver/storage/etcdtest"
)

// waitFor polls cond until it holds or 10s pass.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(10 * time.Second)
	for !cond() {
		select {
		case <-tick.C:
		case <-deadline:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// TestStoreSource: the Node mode over a real pods store on etcd grants a
// node the secret of a pod bound to it, from the first list and from the
// watch, and revokes it when the pod is deleted.
func TestStoreSource(t *testing.T) {
	c, prefix := etcdtest.Client(t)
	st := etcd3.New(zap.NewNop(), c, prometheus.NewRegistry())
	pods := registry.NewStore(pod.Resource(), registry.Config{Storage: st, Prefix: prefix})
	ctx, cancel := context.WithCancel(context.Background())
	create := func(name, node, secret string) {
		t.Helper()
		p := makePod("ns", name).node(node).
			volume(corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: secret}}).
			container(corev1.Container{Name: "c", Image: "busybox"}).obj()
		if _, err := pods.Create(ctx, p, false); err != nil {
			t.Fatal(err)
		}
	}
	create("before", "n1", "s-before")

	src := NewStoreSource(zap.NewNop(), pods)
	a := New(zap.NewNop(), src)
	done := make(chan struct{})
	go func() { src.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })

	allowed := func(secret string) func() bool {
		return func() bool {
			d, _, _ := a.Authorize(context.Background(), req(nodeUser("n1"), "get", "", "secrets", "", "ns", secret))
			return d == authz.Allow
		}
	}
	waitFor(t, "the first list", src.HasSynced)
	if !allowed("s-before")() {
		t.Fatal("a pod that existed before Run grants nothing")
	}
	create("after", "n1", "s-after")
	waitFor(t, "the watched pod's secret to be granted", allowed("s-after"))
	zero := int64(0)
	if _, err := pods.Delete(ctx, "ns", "after", &meta.DeleteOptions{GracePeriodSeconds: &zero}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the deleted pod's secret to be revoked", func() bool { return !allowed("s-after")() })
	if !allowed("s-before")() {
		t.Fatal("deleting one pod revoked another's secret")
	}
}
