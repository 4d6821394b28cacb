package informer

import (
	"context"
	"errors"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/watch"
)

// namespaces is a ListerWatcher of another type that never syncs.
type namespaces struct{}

func (namespaces) List(ctx context.Context, _ meta.ListOptions) ([]*corev1.Namespace, meta.ListMeta, error) {
	<-ctx.Done()
	return nil, meta.ListMeta{}, ctx.Err()
}

func (namespaces) Watch(ctx context.Context, _ meta.ListOptions) (watch.Interface[*corev1.Namespace], error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

func TestFactorySharesOneWatch(t *testing.T) {
	s := newFakeServer()
	seed(s, 3)
	f := NewFactory(Options{Clock: newFakeClock()})
	a, err := For[*corev1.Pod](f, "pods", s)
	if err != nil {
		t.Fatal(err)
	}
	b, err := For[*corev1.Pod](f, "pods", newFakeServer()) // later lw is ignored
	if err != nil || a != b {
		t.Fatalf("second For = %p, %v; want the first informer %p", b, err, a)
	}
	r1, r2 := &recorder{}, &recorder{}
	if _, err := a.AddEventHandler(r1.handler()); err != nil {
		t.Fatal(err)
	}
	if _, err := b.AddEventHandler(r2.handler()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer f.Shutdown()
	defer cancel()
	f.Start(ctx)
	f.Start(ctx) // idempotent
	if !f.WaitForCacheSync(ctx) {
		t.Fatal("not synced")
	}
	s.create(pod("ns", "new", nil))
	r1.wait(t, 4)
	r2.wait(t, 4)
	lists, watches := s.calls()
	if len(lists) != 1 || len(watches) != 1 {
		t.Errorf("%d lists and %d watches, want one of each", len(lists), len(watches))
	}
	l, err := ListerFor[*corev1.Pod](f, "pods")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := l.Namespace("ns").Get("new"); err != nil || got.Name != "new" {
		t.Errorf("lister Get = %v, %v", got, err)
	}
	if gr := a.GroupResource(); gr != (meta.GroupResource{Resource: "pods"}) {
		t.Errorf("group resource %+v", gr)
	}
}

func TestFactoryErrors(t *testing.T) {
	f := NewFactory(Options{})
	if _, err := For[*corev1.Pod](f, "pods", newFakeServer()); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name          string
		call          func() error
		notRegistered bool
	}{
		{"Get unregistered", func() error { _, err := Get[*corev1.Pod](f, "nodes"); return err }, true},
		{"ListerFor unregistered", func() error { _, err := ListerFor[*corev1.Pod](f, "nodes"); return err }, true},
		{"Synced unregistered", func() error { _, err := f.Synced("nodes"); return err }, true},
		{"Get with the wrong type", func() error { _, err := Get[*corev1.Namespace](f, "pods"); return err }, false},
		{"For with the wrong type", func() error { _, err := For[*corev1.Namespace](f, "pods", namespaces{}); return err }, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			if err == nil {
				t.Fatal("no error")
			}
			if errors.Is(err, ErrNotRegistered) != tc.notRegistered {
				t.Errorf("error %v: ErrNotRegistered = %v, want %v", err, !tc.notRegistered, tc.notRegistered)
			}
		})
	}
	if got := f.Keys(); len(got) != 1 || got[0] != "pods" {
		t.Errorf("Keys() = %q: a failed read registered something", got)
	}
}

func TestFactorySynced(t *testing.T) {
	s := newFakeServer()
	seed(s, 2)
	f := NewFactory(Options{Clock: newFakeClock()})
	if _, err := For[*corev1.Pod](f, "pods", s); err != nil {
		t.Fatal(err)
	}
	synced, err := f.Synced("pods")
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-synced:
		t.Fatal("synced before it started")
	default:
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer f.Shutdown()
	defer cancel()
	f.Start(ctx)
	<-synced
	inf, err := Get[*corev1.Pod](f, "pods")
	if err != nil {
		t.Fatal(err)
	}
	if !inf.HasSynced() || inf.GetStore().Len() != 2 {
		t.Errorf("after Synced: HasSynced %v with %d pods, want true with 2", inf.HasSynced(), inf.GetStore().Len())
	}
}

func TestFactoryWaitForCacheSyncGivesUp(t *testing.T) {
	f := NewFactory(Options{})
	if _, err := For[*corev1.Namespace](f, "namespaces", namespaces{}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer f.Shutdown()
	defer cancel()
	f.Start(ctx)
	wctx, wcancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer wcancel()
	if f.WaitForCacheSync(wctx) {
		t.Error("WaitForCacheSync = true for an informer that cannot list")
	}
}

func TestParseGroupResource(t *testing.T) {
	cases := map[string]meta.GroupResource{
		"pods":                       {Resource: "pods"},
		"deployments.apps":           {Group: "apps", Resource: "deployments"},
		"leases.coordination.k8s.io": {Group: "coordination.k8s.io", Resource: "leases"},
	}
	for in, want := range cases {
		if got := ParseGroupResource(in); got != want {
			t.Errorf("ParseGroupResource(%q) = %+v, want %+v", in, got, want)
		}
	}
}
