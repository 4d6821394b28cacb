package aggregator

import (
	"context"
	"crypto/tls"
	"net/http"
	"reflect"
	"sync"
	"time"

	"go.uber.org/zap"

	apiregv1 "platform.io/client/api/apiregistration/v1"
	"platform.io/client/api/meta"
	"platform.io/client/controller"

	"platform.io/platform/pkg/apiserver/admission/webhook/client"
	"platform.io/platform/pkg/apiserver/registry"
)

// LocalGroups is what the aggregator needs of the server's own handler.
type LocalGroups interface {
	// ServesGroup reports whether the server serves group itself.
	ServesGroup(group string) bool
	// GroupList is the /apis document of the server's own groups.
	GroupList() *meta.APIGroupList
}

// Headers are the request headers that carry the user to an aggregated
// server.
type Headers struct {
	User        string
	Group       string
	ExtraPrefix string
}

// DefaultHeaders are upstream's names, which aggregated servers expect
// unless told otherwise.
var DefaultHeaders = Headers{User: "X-Remote-User", Group: "X-Remote-Group", ExtraPrefix: "X-Remote-Extra-"}

// Config is what the aggregator works with.
type Config struct {
	// APIServices, Services and Endpoints are the server's stores.
	APIServices, Services, Endpoints *registry.Store
	// Local serves the server's own groups, whose paths are never proxied.
	Local LocalGroups
	// ClientCert is the front-proxy client certificate presented to
	// aggregated servers; nil presents none (they will not trust the
	// user headers then).
	ClientCert *tls.Certificate
	// Headers name the user headers; zero fields take DefaultHeaders'.
	Headers Headers
	// CheckInterval is how often each APIService is checked again; 0 is
	// 30s.
	CheckInterval time.Duration
	// CheckTimeout bounds one discovery check; 0 is 5s.
	CheckTimeout time.Duration
	// Resolver, when set, wraps the resolution of Services (tests reach
	// loopback addresses through it).
	Resolver func(client.Resolver) client.Resolver
	// Now reads the clock (nil: time.Now).
	Now func() time.Time
	// OpenAPIV2, when set, serves /openapi/v2 with the aggregated
	// servers' v2 documents merged in; nil serves the server's own only.
	OpenAPIV2 OpenAPIV2
}

// OpenAPIV2 serves the server's OpenAPI v2 document with others merged in.
type OpenAPIV2 interface {
	ServeV2With(w http.ResponseWriter, r *http.Request, extras [][]byte)
}

// Aggregator is the proxy, the discovery merge and the availability
// checks. Handler serves; Run keeps its view of the APIServices current
// and checks them.
type Aggregator struct {
	lg       *zap.Logger
	cfg      Config
	resolver client.Resolver
	checks   *controller.Controller
	// mu guards services.
	mu sync.RWMutex
	// services are the APIServices by name, each with its transport.
	services map[string]*backend
	// openAPIV2 are the v2 documents of the servers of Available
	// APIServices, by APIService name, fetched after each passed check.
	openAPIV2 map[string][]byte
	synced    chan struct{}
	syncOnce  sync.Once
}

// backend is one APIService and the transport that reaches its server.
type backend struct {
	svc       *apiregv1.APIService
	transport *transport
}

// New returns an aggregator; call Run to start it.
func New(lg *zap.Logger, cfg Config) (*Aggregator, error) {
	if cfg.CheckInterval <= 0 {
		cfg.CheckInterval = 30 * time.Second
	}
	if cfg.CheckTimeout <= 0 {
		cfg.CheckTimeout = 5 * time.Second
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	h := &cfg.Headers
	if h.User == "" {
		h.User = DefaultHeaders.User
	}
	if h.Group == "" {
		h.Group = DefaultHeaders.Group
	}
	if h.ExtraPrefix == "" {
		h.ExtraPrefix = DefaultHeaders.ExtraPrefix
	}
	var r client.Resolver = client.StoreResolver{Services: cfg.Services, Endpoints: cfg.Endpoints}
	if cfg.Resolver != nil {
		r = cfg.Resolver(r)
	}
	a := &Aggregator{lg: lg, cfg: cfg, resolver: r, services: map[string]*backend{}, openAPIV2: map[string][]byte{}, synced: make(chan struct{})}
	c, err := controller.New(controller.Func(a.reconcile), controller.Options{Name: "apiservice-availability", Workers: 2})
	if err != nil {
		return nil, err
	}
	a.checks = c
	return a, nil
}

// HasSynced reports whether the APIServices have been listed once.
func (a *Aggregator) HasSynced() bool {
	select {
	case <-a.synced:
		return true
	default:
		return false
	}
}

// Run follows the APIServices, Services and Endpoints and checks the
// APIServices until ctx ends.
func (a *Aggregator) Run(ctx context.Context) {
	var wg sync.WaitGroup
	feeds := []struct {
		store *registry.Store
		f     registry.Follower
	}{
		{a.cfg.APIServices, registry.Follower{Replace: a.replace, Apply: a.apply}},
		{a.cfg.Services, registry.Follower{Apply: a.serviceChanged}},
		{a.cfg.Endpoints, registry.Follower{Apply: a.serviceChanged}},
	}
	for _, f := range feeds {
		wg.Go(func() { registry.Follow(ctx, a.lg, f.store, f.f) })
	}
	_ = a.checks.Run(ctx)
	wg.Wait()
}

// replace takes a full list of APIServices.
func (a *Aggregator) replace(objs []meta.Object) {
	next := map[string]*backend{}
	a.mu.Lock()
	for _, o := range objs {
		s := o.(*apiregv1.APIService)
		next[s.Name] = a.backendLocked(s)
	}
	a.services = next
	a.mu.Unlock()
	for name := range next {
		a.checks.Enqueue(name)
	}
	a.syncOnce.Do(func() { close(a.synced) })
}

// apply takes one change of an APIService; a new one or a changed spec is
// checked at once.
func (a *Aggregator) apply(o meta.Object, deleted bool) {
	s := o.(*apiregv1.APIService)
	a.mu.Lock()
	old := a.services[s.Name]
	if deleted {
		delete(a.services, s.Name)
		delete(a.openAPIV2, s.Name)
		if old != nil && old.transport != nil {
			old.transport.CloseIdleConnections()
		}
	} else {
		a.services[s.Name] = a.backendLocked(s)
	}
	a.mu.Unlock()
	if !deleted && (old == nil || !reflect.DeepEqual(old.svc.Spec, s.Spec)) {
		a.checks.Enqueue(s.Name)
	}
}

// backendLocked returns the backend of s, keeping the transport of the
// one it replaces while the TLS settings are the same.
func (a *Aggregator) backendLocked(s *apiregv1.APIService) *backend {
	b := &backend{svc: s}
	old := a.services[s.Name]
	if old != nil && old.transport != nil && old.transport.matches(s) {
		b.transport = old.transport
		return b
	}
	if old != nil && old.transport != nil {
		// Requests in flight keep their connections; idle ones go.
		old.transport.CloseIdleConnections()
	}
	if s.Spec.Service != nil {
		b.transport = newTransport(s, a.cfg.ClientCert)
	}
	return b
}

// serviceChanged checks again the APIServices that name a Service or
// Endpoints object that changed.
func (a *Aggregator) serviceChanged(o meta.Object, _ bool) {
	m := o.GetObjectMeta()
	a.mu.RLock()
	var names []string
	for name, b := range a.services {
		if ref := b.svc.Spec.Service; ref != nil && ref.Namespace == m.Namespace && ref.Name == m.Name {
			names = append(names, name)
		}
	}
	a.mu.RUnlock()
	for _, n := range names {
		a.checks.Enqueue(n)
	}
}

// lookup returns the backend serving group/version, if an APIService
// names it.
func (a *Aggregator) lookup(group, version string) *backend {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return a.services[apiregv1.NameFor(group, version)]
}

// snapshot returns the APIServices.
func (a *Aggregator) snapshot() []*apiregv1.APIService {
	a.mu.RLock()
	defer a.mu.RUnlock()
	out := make([]*apiregv1.APIService, 0, len(a.services))
	for _, b := range a.services {
		out = append(out, b.svc)
	}
	return out
}
