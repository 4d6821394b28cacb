package server

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
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
// it goes), added to and removed from the resource handler. Its objects
// are counted in apiserver_storage_objects while it is served, and its
// watch cache holds /readyz back while it fills, as the built-in ones do.
type customResources struct {
	s    *Server
	ctrl *crd.Controller
	// objects is apiserver_storage_objects.
	objects *prometheus.GaugeVec
	// now and loadGrace bound how long a cache that does not fill holds
	// /readyz back (see cachesLoaded).
	now       func() time.Time
	loadGrace time.Duration
	// mu guards ctx, caches, owners and stores.
	mu sync.Mutex
	// ctx is the server's life, set when run starts: caches run in it.
	ctx context.Context
	// caches are the running watch caches by storage key prefix.
	caches map[string]*runningCache
	// owners maps a definition to the key prefix its objects use.
	owners map[string]string
	// stores maps a definition to the store of its storage version.
	stores map[string]*registry.Store
}

// customCacheLoadGrace is how long a custom resource's watch cache may
// take to fill before /readyz stops waiting for it.
const customCacheLoadGrace = time.Minute

// runningCache is a watch cache started for a custom resource.
type runningCache struct {
	backend storage.Interface
	stop    context.CancelFunc
	done    chan struct{}
	// resource names the cache in /readyz; loaded tells whether it has
	// filled once; started is when it started; overdue is set once it
	// has been reported as not filling within the grace.
	resource string
	loaded   func() bool
	started  time.Time
	overdue  bool
}

var _ crd.Registrar = (*customResources)(nil)

func (s *Server) buildCustomResources(spec *openapi.Spec, objects *prometheus.GaugeVec) error {
	cr := &customResources{s: s, objects: objects, now: time.Now, loadGrace: customCacheLoadGrace,
		caches: map[string]*runningCache{}, owners: map[string]string{}, stores: map[string]*registry.Store{}}
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
	st := registry.NewStore(storageRow, cfg(storageRow))
	c.mu.Lock()
	defer c.mu.Unlock()
	if prev, ok := c.stores[owner]; ok && prev.Resource.GroupResource() != storageRow.GroupResource() {
		c.objects.DeleteLabelValues(prev.Resource.GroupResource().String())
	}
	c.stores[owner] = st
	return st, nil
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
	if st, ok := c.stores[owner]; ok {
		c.objects.DeleteLabelValues(st.Resource.GroupResource().String())
		delete(c.stores, owner)
	}
}

// countObjects sets apiserver_storage_objects of every served custom
// resource. A definition unserved meanwhile keeps no series.
func (c *customResources) countObjects(ctx context.Context) {
	c.mu.Lock()
	stores := maps.Clone(c.stores)
	c.mu.Unlock()
	for owner, st := range stores {
		n, err := st.Count(ctx)
		if err != nil {
			continue
		}
		c.mu.Lock()
		if c.stores[owner] == st {
			c.objects.WithLabelValues(st.Resource.GroupResource().String()).Set(float64(n))
		}
		c.mu.Unlock()
	}
}

// synced is the crd-informer-synced check of /readyz: the definitions
// that existed at start have been served (or found unservable), so a
// ready server serves their types.
func (c *customResources) synced(context.Context) error {
	if !c.ctrl.HasSynced() {
		return errors.New("custom resource definitions not served yet")
	}
	return nil
}

// cachesLoaded is the crd-watch-cache check of /readyz: it fails while
// the watch cache of a served custom resource has not filled, as the
// built-in caches hold /readyz back. A cache that has not filled within
// loadGrace of its start (stored objects it cannot decode, say) is
// logged and no longer waited for, so that one broken definition does
// not keep the whole server unready; a deleted definition's cache is
// stopped and forgotten.
func (c *customResources) cachesLoaded(context.Context) error {
	now := c.now()
	c.mu.Lock()
	defer c.mu.Unlock()
	var loading []string
	for _, rc := range c.caches {
		if rc.loaded() {
			continue
		}
		if now.Sub(rc.started) >= c.loadGrace {
			if !rc.overdue {
				rc.overdue = true
				c.s.lg.Error("custom resource watch cache not filled in time; /readyz no longer waits for it",
					zap.String("resource", rc.resource), zap.Duration("grace", c.loadGrace))
			}
			continue
		}
		loading = append(loading, rc.resource)
	}
	if len(loading) > 0 {
		slices.Sort(loading)
		return fmt.Errorf("watch caches of custom resources still loading: %s", strings.Join(loading, ", "))
	}
	return nil
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
	rc := &runningCache{backend: b, stop: func() {}, done: make(chan struct{}),
		resource: storageRow.GroupResource().String(), loaded: func() bool { return true }, started: c.now()}
	if cache == nil {
		close(rc.done)
	} else {
		rc.loaded = func() bool { return cache.Revision() != 0 }
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
