package webhooktest

import (
	"context"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/admission/webhook/generic"
	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/registry/builtin"
	"platform.io/platform/pkg/apiserver/storage/etcd3"
	"platform.io/platform/pkg/apiserver/storage/etcdtest"
)

// Env is the stores of every built-in resource over a real etcd (the
// test's own key prefix), and the plugin configuration over them.
type Env struct {
	Config   generic.Config
	Registry *prometheus.Registry
	stores   map[meta.GroupResource]*registry.Store
	versions map[meta.GroupVersionResource]*registry.Store
}

// NewEnv returns the stores of a fresh key prefix.
func NewEnv(t testing.TB) *Env {
	t.Helper()
	c, prefix := etcdtest.Client(t)
	reg := prometheus.NewRegistry()
	st := etcd3.New(zap.NewNop(), c, reg)
	rows := builtin.Resources(builtin.Config{})
	e := &Env{Registry: reg, stores: map[meta.GroupResource]*registry.Store{}, versions: map[meta.GroupVersionResource]*registry.Store{}}
	for _, r := range rows {
		if r.Virtual != nil {
			continue
		}
		s := registry.NewStore(r, registry.Config{Storage: st, Prefix: prefix})
		e.versions[meta.GroupVersionResource{Group: r.Group, Version: r.Version, Resource: r.Name}] = s
		if _, ok := e.stores[r.GroupResource()]; !ok {
			e.stores[r.GroupResource()] = s
		}
	}
	e.Config = generic.Config{Logger: zap.NewNop(), Registerer: reg, Resources: rows,
		Store: func(gr meta.GroupResource) *registry.Store { return e.stores[gr] }}
	return e
}

// Create stores obj through the resource gvr.
func (e *Env) Create(t testing.TB, gvr meta.GroupVersionResource, obj meta.Object) meta.Object {
	t.Helper()
	s := e.versions[gvr]
	if s == nil {
		t.Fatalf("%v is not served", gvr)
	}
	out, err := s.Create(context.Background(), obj, false)
	if err != nil {
		t.Fatalf("create %v: %v", gvr, err)
	}
	return out
}
