package server

import (
	"context"
	"fmt"
	"sync"

	"go.uber.org/zap"

	apiextv1 "platform.io/client/api/apiextensions/v1"

	"platform.io/platform/pkg/apiserver/admission/webhook/client"
	"platform.io/platform/pkg/apiserver/crd"
	"platform.io/platform/pkg/apiserver/crd/applyschema"
	"platform.io/platform/pkg/apiserver/crd/conversion"
	"platform.io/platform/pkg/apiserver/fieldmanager"
	"platform.io/platform/pkg/apiserver/openapi"
	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/storage"
)

// customResources serves the custom resources of established definitions
// with the machinery of the built-in ones: a store per served version over
// a watch cache of its own (started when the type is served, stopped when
// it goes), added to and removed from the resource handler.
type customResources struct {
	s    *Server
	ctrl *crd.Controller
	// mu guards ctx and caches.
	mu sync.Mutex
	// ctx is the server's life, set when run starts: caches run in it.
	ctx context.Context
	// caches are the running watch caches by storage key prefix.
	caches map[string]*runningCache
	// owners maps a definition to the key prefix its objects use.
	owners map[string]string
}

// runningCache is a watch cache started for a custom resource.
type runningCache struct {
	backend storage.Interface
	stop    context.CancelFunc
	done    chan struct{}
}

var _ crd.Registrar = (*customResources)(nil)

func (s *Server) buildCustomResources(spec *openapi.Spec) error {
	cr := &customResources{s: s, caches: map[string]*runningCache{}, owners: map[string]string{}}
	builtin := make([]*registry.Resource, len(s.stores))
	for i, st := range s.stores {
		builtin[i] = st.Resource
	}
	// Conversion webhooks are reached as admission webhooks are: by URL,
	// or by Service through its Endpoints, with the definition's caBundle.
	hooks, err := conversion.NewCaller(client.New(client.StoreResolver{
		Services: s.store("", "services"), Endpoints: s.store("", "endpoints")}), s.registry)
	if err != nil {
		return err
	}
	cfg := crd.Config{
		Definitions: s.store(apiextv1.GroupName, "customresourcedefinitions"),
		Registrar:   cr,
		OpenAPI:     spec,
		Builtin:     builtin,
		Conversion:  hooks,
	}
	if s.opts.Features.Enabled(options.ServerSideApply) {
		name, types, err := openapi.ObjectMetaTypes()
		if err != nil {
			return fmt.Errorf("build the typed schema of custom resources' metadata: %w", err)
		}
		cfg.Apply = &applyschema.Shared{ObjectMeta: name, Deduced: openapi.DeducedType, Untyped: openapi.UntypedType, Types: types}
	}
	ctrl, err := crd.New(s.lg.Named("crd"), cfg)
	if err != nil {
		return err
	}
	cr.ctrl = ctrl
	s.crds = cr
	return nil
}

// run runs the definitions' controller until ctx ends, then stops the caches.
func (c *customResources) run(ctx context.Context) {
	c.mu.Lock()
	c.ctx = ctx
	c.mu.Unlock()
	c.ctrl.Run(ctx)
	c.mu.Lock()
	defer c.mu.Unlock()
	for sp, rc := range c.caches {
		rc.stop()
		<-rc.done
		delete(c.caches, sp)
	}
}

// Serve builds the stores of a definition's rows and serves them.
func (c *customResources) Serve(owner string, served []*registry.Resource, storageRow *registry.Resource) (*registry.Store, error) {
	backend, err := c.backend(owner, storageRow)
	if err != nil {
		return nil, err
	}
	s := c.s
	cfg := func(r *registry.Resource) registry.Config {
		return registry.Config{Storage: backend, Prefix: s.opts.Etcd.Prefix, Admission: lateAdmission{s}, FieldManager: s.customFieldManager(r)}
	}
	stores := make([]*registry.Store, len(served))
	for i, r := range served {
		stores[i] = registry.NewStore(r, cfg(r))
	}
	if err := s.api.Set(owner, stores); err != nil {
		return nil, fmt.Errorf("serve %s: %w", owner, err)
	}
	return registry.NewStore(storageRow, cfg(storageRow)), nil
}

// Unserve removes a definition's stores and stops its watch cache.
func (c *customResources) Unserve(owner string) {
	if err := c.s.api.Set(owner, nil); err != nil {
		c.s.lg.Error("cannot stop serving a custom resource", zap.String("owner", owner), zap.Error(err))
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if sp, ok := c.owners[owner]; ok {
		c.stopCacheLocked(sp)
		delete(c.owners, owner)
	}
}

// backend returns the storage of a definition's objects, starting its
// watch cache the first time, and stops the cache of the key prefix the
// definition used before (its plural changed).
func (c *customResources) backend(owner string, storageRow *registry.Resource) (storage.Interface, error) {
	sp := registry.StoragePrefix(c.s.opts.Etcd.Prefix, storageRow)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ctx == nil {
		return nil, fmt.Errorf("serve %s: the server is not running", owner)
	}
	if prev, ok := c.owners[owner]; ok && prev != sp {
		c.stopCacheLocked(prev)
	}
	c.owners[owner] = sp
	if rc, ok := c.caches[sp]; ok {
		return rc.backend, nil
	}
	b, cache := c.s.newBackend(storageRow)
	rc := &runningCache{backend: b, stop: func() {}, done: make(chan struct{})}
	if cache == nil {
		close(rc.done)
	} else {
		ctx, stop := context.WithCancel(c.ctx)
		rc.stop = stop
		go func() {
			defer close(rc.done)
			cache.Run(ctx)
		}()
	}
	c.caches[sp] = rc
	return b, nil
}

func (c *customResources) stopCacheLocked(sp string) {
	if rc, ok := c.caches[sp]; ok {
		rc.stop()
		delete(c.caches, sp)
	}
}

// customFieldManager keeps the managedFields of a custom resource, whose
// objects are parsed by the type its row built from the version's schema,
// when server-side apply is on.
func (s *Server) customFieldManager(r *registry.Resource) *fieldmanager.FieldManager {
	if !s.opts.Features.Enabled(options.ServerSideApply) || r.ApplyType == nil {
		return nil
	}
	return fieldmanager.New(s.lg.Named("fieldmanager"), fieldmanager.Config{Type: *r.ApplyType,
		APIVersion: r.GroupVersion().String(), Kind: r.Kind, New: r.New, HasStatus: r.HasStatus})
}
