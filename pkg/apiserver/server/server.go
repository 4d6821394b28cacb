package server

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.etcd.io/etcd/client/pkg/v3/transport"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
	"golang.org/x/sync/errgroup"

	apiregv1 "platform.io/client/api/apiregistration/v1"
	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/apiserver/admission"
	"platform.io/platform/pkg/apiserver/aggregator"
	"platform.io/platform/pkg/apiserver/audit"
	apiauthn "platform.io/platform/pkg/apiserver/authn"
	"platform.io/platform/pkg/apiserver/authz"
	"platform.io/platform/pkg/apiserver/authz/rbac"
	"platform.io/platform/pkg/apiserver/endpoints"
	"platform.io/platform/pkg/apiserver/fieldmanager"
	"platform.io/platform/pkg/apiserver/openapi"
	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/registry/authentication/tokenreview"
	"platform.io/platform/pkg/apiserver/registry/builtin"
	"platform.io/platform/pkg/apiserver/storage"
	"platform.io/platform/pkg/apiserver/storage/cacher"
	"platform.io/platform/pkg/apiserver/storage/embedded"
	"platform.io/platform/pkg/apiserver/storage/etcd3"
	"platform.io/platform/pkg/component/certs"
	componentserver "platform.io/platform/pkg/component/server"
	"platform.io/platform/pkg/component/version"
)

// Server is a running API server: etcd connection, stores and listeners.
type Server struct {
	lg       *zap.Logger
	opts     *options.Options
	etcd     *clientv3.Client
	embedded *embedded.Etcd
	storage  storage.Interface
	stores   []*registry.Store
	cachers  []*cacher.Cacher
	// cacheMetrics are the watch caches' metrics, nil without caches;
	// trustProgress says etcd orders progress notifications.
	cacheMetrics  *cacher.Metrics
	trustProgress bool
	// api serves the resources; custom resources are added to and
	// removed from it at run time by crds.
	api  *endpoints.Handler
	crds *customResources
	// objectCounts is apiserver_storage_objects.
	objectCounts *prometheus.GaugeVec
	// bootstrapped is set once the system namespaces exist.
	bootstrapped atomic.Bool
	registry     *prometheus.Registry
	handler      http.Handler
	// insecureHandler serves --insecure-port: the same handlers, without
	// authentication or authorization.
	insecureHandler http.Handler
	// authn is the authentication chain and what it publishes.
	authn *options.AuthenticationConfig
	// authorizer and rules are the --authorization-mode chain, set before
	// the server serves and never changed after; authzRunners is the
	// background work of its modes.
	authorizer   authz.Authorizer
	rules        authz.RuleResolver
	authzRunners []func(context.Context)
	authzSynced  []func() bool
	secure       net.Listener
	insecure     net.Listener
	tlsConfig    *tls.Config
	life         *lifecycle
	// storeConfig is the registry configuration of a resource's store.
	storeConfig func(r *registry.Resource) registry.Config
	// rbac is the RBAC policy (rbac.go); rbacBootstrapped is set once
	// the bootstrap policy is reconciled.
	rbac             rbacState
	rbacBootstrapped atomic.Bool
	// admission is the chain of admission plugins, set before the server
	// serves and never changed after.
	admission *admission.Chain
	// CertFile is the serving certificate (self-signed when none was given).
	CertFile string
	saTokens *serviceAccountTokens
	// audit is the audit policy and backend (no backend: not auditing).
	audit audit.Config
	// aggregator proxies the group versions APIServices delegate.
	aggregator *aggregator.Aggregator
}

// New connects to etcd (starting the embedded member when no servers are
// given), builds the stores and handlers and binds the listeners.
func New(ctx context.Context, lg *zap.Logger, o *options.Options) (*Server, error) {
	s := &Server{lg: lg, opts: o, registry: prometheus.NewRegistry(), life: &lifecycle{sendRetryAfter: o.Generic.ShutdownSendRetryAfter}}
	s.registry.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if err := s.connectEtcd(ctx); err != nil {
		s.Close()
		return nil, err
	}
	s.storage = etcd3.New(lg.Named("storage"), s.etcd, s.registry)
	s.rbac.escalation = &rbac.Escalation{}
	var err error
	if s.saTokens, err = s.newServiceAccountTokens(); err != nil {
		s.Close()
		return nil, err
	}
	if err := s.buildStores(); err != nil {
		s.Close()
		return nil, err
	}
	if err := s.buildAdmission(); err != nil {
		s.Close()
		return nil, err
	}
	s.buildRBAC()
	if s.handler, err = s.buildHandler(); err != nil {
		s.Close()
		return nil, err
	}
	if err := s.listen(); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func (s *Server) connectEtcd(ctx context.Context) error {
	eo := s.opts.Etcd
	servers := eo.Servers
	if len(servers) == 0 {
		s.lg.Warn("no --etcd-servers given: starting an embedded single-member etcd; this is for development only, its data has no replicas",
			zap.String("dataDir", eo.DataDir))
		e, err := embedded.Start(ctx, s.lg, embedded.Options{DataDir: eo.DataDir, ClientURL: "http://127.0.0.1:0", PeerURL: "http://127.0.0.1:0"})
		if err != nil {
			return err
		}
		s.embedded, servers = e, []string{e.ClientURL}
	}
	cfg := clientv3.Config{Endpoints: servers, DialTimeout: eo.DialTimeout, Logger: s.lg.Named("etcd-client").WithOptions(zap.IncreaseLevel(zap.ErrorLevel)),
		// The client outlives ctx, which ends when a graceful shutdown
		// begins: requests keep being served after that.
		Context: context.WithoutCancel(ctx)}
	if eo.CertFile != "" || eo.CAFile != "" {
		tlsInfo := transport.TLSInfo{CertFile: eo.CertFile, KeyFile: eo.KeyFile, TrustedCAFile: eo.CAFile}
		tc, err := tlsInfo.ClientConfig()
		if err != nil {
			return fmt.Errorf("etcd TLS: %w", err)
		}
		cfg.TLS = tc
	}
	c, err := clientv3.New(cfg)
	if err != nil {
		return fmt.Errorf("connect to etcd %v: %w", servers, err)
	}
	s.etcd = c
	pctx, cancel := context.WithTimeout(ctx, eo.DialTimeout)
	defer cancel()
	if _, err := c.Get(pctx, "health"); err != nil {
		return fmt.Errorf("etcd %v does not answer: %w", servers, err)
	}
	return nil
}

func (s *Server) buildStores() error {
	rows := builtin.Resources(builtin.Config{EventTTL: s.opts.API.EventTTL, ServiceAccountTokens: s.saTokens.registryConfig(), TokenReviews: tokenreview.Config{Authenticator: tokenReviews{s}, APIAudiences: s.saTokens.config.APIAudiences}, Escalation: s.rbac.escalation,
		Authorizer: lateAuthorizer{s}, RuleResolver: lateAuthorizer{s}})
	prefix := s.opts.Etcd.Prefix
	backends := s.buildBackends(rows)
	fields, err := s.fieldManagers(rows)
	if err != nil {
		return err
	}
	cfg := func(r *registry.Resource) registry.Config {
		return registry.Config{Storage: backends[registry.StoragePrefix(prefix, r)], Prefix: prefix, MediaType: s.opts.Etcd.StorageMediaType,
			Admission: lateAdmission{s}, FieldManager: fields(r)}
	}
	s.storeConfig = cfg
	for _, r := range rows {
		s.stores = append(s.stores, registry.NewStore(r, cfg(r)))
	}
	s.saTokens.useStores(s)
	return nil
}

// fieldManagers returns what gives each row its field manager: none with
// the ServerSideApply gate off, else one over the typed schema converted
// once from the OpenAPI definitions (deduced for a kind without one).
func (s *Server) fieldManagers(rows []*registry.Resource) (func(*registry.Resource) *fieldmanager.FieldManager, error) {
	if !s.opts.Features.Enabled(options.ServerSideApply) {
		return func(*registry.Resource) *fieldmanager.FieldManager { return nil }, nil
	}
	ts, err := openapi.BuildTypedSchema(rows)
	if err != nil {
		return nil, fmt.Errorf("build the typed schema of server-side apply: %w", err)
	}
	lg := s.lg.Named("fieldmanager")
	return func(r *registry.Resource) *fieldmanager.FieldManager {
		if r.Virtual != nil {
			return nil
		}
		pt, _ := ts.Type(r.GroupVersionKind())
		c := fieldmanager.Config{Type: pt, APIVersion: r.GroupVersion().String(), Kind: r.Kind, New: r.New, HasStatus: r.HasStatus}
		if r.Scale != nil {
			if scale, ok := ts.ScaleType(); ok {
				c.Scale = &scale
			}
		}
		return fieldmanager.New(lg, c)
	}, nil
}

// buildBackends returns the storage of each stored resource, by key prefix:
// a watch cache over etcd, or etcd itself with --watch-cache=false. Versions
// of one kind share their storage.
func (s *Server) buildBackends(rows []*registry.Resource) map[string]storage.Interface {
	backends := map[string]storage.Interface{}
	s.trustProgress = s.progressTrusted(s.storage.(*etcd3.Store))
	if s.opts.API.WatchCache {
		s.cacheMetrics = cacher.NewMetrics(s.registry)
	}
	for _, r := range rows {
		sp := registry.StoragePrefix(s.opts.Etcd.Prefix, r)
		if _, done := backends[sp]; done || r.Virtual != nil {
			continue
		}
		b, c := s.newBackend(r)
		backends[sp] = b
		if c != nil {
			s.cachers = append(s.cachers, c)
		}
	}
	return backends
}

// newBackend returns the storage of r's objects: a watch cache over etcd
// (returned too, for the caller to run), or etcd itself with
// --watch-cache=false. The built-in resources get theirs at start, the
// custom ones when their definition is established.
func (s *Server) newBackend(r *registry.Resource) (storage.Interface, *cacher.Cacher) {
	base := s.storage.(*etcd3.Store)
	if !s.opts.API.WatchCache {
		return base, nil
	}
	sp := registry.StoragePrefix(s.opts.Etcd.Prefix, r)
	sr := registry.StorageResource(r)
	decoder := registry.NewStore(sr, registry.Config{Storage: base, Prefix: s.opts.Etcd.Prefix})
	c := cacher.New(s.lg.Named("watch-cache"), cacher.Config{
		Backend: base, Prefix: sp, Attrs: decoder.Attrs,
		Capacity: s.opts.API.WatchCacheSize(sr.Name, sr.Group),
		Metrics:  s.cacheMetrics, Resource: sr.GroupResource().String(), TrustProgress: s.trustProgress,
	})
	return c, c
}

// progressTrusted checks whether etcd orders progress notifications, which
// lets the watch cache serve consistent reads; older etcd releases do not.
func (s *Server) progressTrusted(base *etcd3.Store) bool {
	ctx, cancel := context.WithTimeout(context.Background(), s.opts.Etcd.DialTimeout)
	defer cancel()
	ok, versions, err := base.ProgressNotifyReliable(ctx)
	switch {
	case err != nil:
		s.lg.Warn("cannot read etcd's version; consistent lists will be read from etcd", zap.Error(err))
	case !ok:
		s.lg.Warn("this etcd may send progress notifications ahead of events (fixed in 3.4.31 and 3.5.13); consistent lists and watches that start from the current state will be read from etcd instead of the watch cache",
			zap.Strings("versions", versions))
	}
	return ok
}

func isNamespaces(r *registry.Resource) bool { return r.Group == "" && r.Name == "namespaces" }

func (s *Server) namespaces() *registry.Store { return s.store("", "namespaces") }

// store returns the store of a resource in its group's first version.
func (s *Server) store(group, resource string) *registry.Store {
	for _, st := range s.stores {
		if st.Resource.Group == group && st.Resource.Name == resource {
			return st
		}
	}
	return nil
}

func (s *Server) buildHandler() (http.Handler, error) {
	mux := http.NewServeMux()
	rows := make([]*registry.Resource, len(s.stores))
	for i, st := range s.stores {
		rows[i] = st.Resource
	}
	spec, err := openapi.Build(rows, openapi.Info{Title: "Platform", Version: version.Get().GitVersion})
	if err != nil {
		return nil, fmt.Errorf("build OpenAPI documents: %w", err)
	}
	gates := s.opts.Features
	api := endpoints.NewHandler(s.lg.Named("endpoints"), endpoints.Config{
		MinRequestTimeout: time.Duration(s.opts.API.MinRequestTimeout) * time.Second,
		Features: endpoints.Features{
			DryRun:             gates.Enabled(options.DryRun),
			ListChunking:       gates.Enabled(options.APIListChunking),
			RemainingItemCount: gates.Enabled(options.RemainingItemCount),
		},
	}, s.stores)
	s.api = api
	s.objectCounts = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "apiserver_storage_objects",
		Help: "Number of stored objects at the last count, by resource.",
	}, []string{"resource"})
	s.registry.MustRegister(s.objectCounts)
	if err := s.buildCustomResources(spec, s.objectCounts); err != nil {
		return nil, err
	}
	if s.aggregator, err = s.buildAggregator(api, spec); err != nil {
		return nil, err
	}
	metrics := newRequestMetrics(s.registry)
	g := s.opts.Generic
	resources := metrics.wrap(withMaxInFlight(withTimeout(s.aggregator.Handler(api), g.RequestTimeout), g.MaxRequestsInFlight, g.MaxMutatingRequestsInFlight, s.registry))
	for _, p := range []string{"/api", "/api/", "/apis", "/apis/"} {
		mux.Handle(p, resources)
	}
	etcdCheck := check{name: "etcd", fn: func(ctx context.Context) error {
		_, err := s.storage.CurrentRevision(ctx)
		return err
	}}
	ping := check{name: "ping", fn: func(context.Context) error { return nil }}
	mux.Handle("/healthz", healthHandler([]check{ping, etcdCheck}))
	mux.Handle("/livez", healthHandler([]check{ping}))
	bootstrap := check{name: "bootstrap", fn: func(context.Context) error {
		if !s.bootstrapped.Load() {
			return errors.New("system namespaces not created yet")
		}
		return nil
	}}
	caches := check{name: "watch-cache", fn: func(context.Context) error {
		for _, c := range s.cachers {
			if c.Revision() == 0 {
				return errors.New("watch caches still loading")
			}
		}
		return nil
	}}
	shutdown := check{name: "shutdown", fn: func(context.Context) error {
		if s.life.shuttingDown.Load() {
			return errors.New("process is shutting down")
		}
		return nil
	}}
	rbacCheck := check{name: "rbac/bootstrap-roles", fn: s.rbacReady}
	authzCheck := check{name: "authorization", fn: s.authorizersSynced}
	aggCheck := check{name: "apiservice-registration", fn: func(context.Context) error {
		if !s.aggregator.HasSynced() {
			return errors.New("APIServices not listed yet")
		}
		return nil
	}}
	crdSynced := check{name: "crd-informer-synced", fn: s.crds.synced}
	crdCaches := check{name: "crd-watch-cache", fn: s.crds.cachesLoaded}
	mux.Handle("/readyz", healthHandler([]check{ping, etcdCheck, bootstrap, caches, crdSynced, crdCaches, rbacCheck, authzCheck, aggCheck, shutdown}))
	mux.Handle("/metrics", promhttp.HandlerFor(s.registry, promhttp.HandlerOpts{Registry: s.registry}))
	mux.HandleFunc("/version", versionHandler)
	if d := s.opts.Debugging; d.EnableProfiling {
		// Non-resource paths like /metrics: authorized by the chain (get
		// on /debug/pprof/...), which only cluster administrators have by
		// default.
		componentserver.InstallProfiling(mux, d.EnableContentionProfiling)
	}
	mux.HandleFunc("/", notFoundHandler)
	mux.Handle("/openapi/", metrics.wrap(s.aggregator.OpenAPIHandler(spec.Handler())))
	s.saTokens.install(mux, metrics.wrap)
	return s.buildChain(mux)
}

// buildAggregator builds the proxy to aggregated servers in front of
// local, the server's own resource handler, and the merge of their
// OpenAPI v2 documents into spec's.
func (s *Server) buildAggregator(local *endpoints.Handler, spec *openapi.Spec) (*aggregator.Aggregator, error) {
	cfg := aggregator.Config{
		APIServices: s.store(apiregv1.GroupName, "apiservices"),
		Services:    s.store("", "services"),
		Endpoints:   s.store("", "endpoints"),
		Local:       local,
		OpenAPIV2:   spec,
	}
	if err := s.opts.Aggregator.ApplyTo(&cfg, s.opts.Authn); err != nil {
		return nil, err
	}
	if cfg.ClientCert == nil {
		s.lg.Warn("no --proxy-client-cert-file: requests proxied to aggregated API servers carry no front-proxy certificate, so those servers cannot trust the user they name")
	}
	return aggregator.New(s.lg.Named("aggregator"), cfg)
}

// buildChain puts authentication, impersonation and authorization in front
// of every path of mux, in upstream's order, for the secure port; the
// insecure port serves mux as a member of system:masters.
func (s *Server) buildChain(mux http.Handler) (http.Handler, error) {
	z, rules, err := s.buildAuthorizer(authorizationModes())
	if err != nil {
		return nil, err
	}
	s.authorizer, s.rules = z, rules
	// The rbac group's escalation checks ask the same chain about the
	// escalate and bind verbs.
	s.rbac.escalation.SetAuthorizer(z)
	lg := s.lg.Named("authn")
	deps := options.AuthenticationDeps{Secrets: s.getSecret}
	if s.saTokens.auth != nil {
		deps.ServiceAccounts = s.saTokens.auth
	}
	s.authn, err = s.opts.Authn.ApplyTo(lg, s.opts.Authz.Modes, deps)
	if err != nil {
		return nil, err
	}
	auditLg := s.lg.Named("audit")
	s.audit = audit.Config{Metrics: audit.NewMetrics(s.registry), LongRunning: longRunning}
	if err := s.opts.Audit.ApplyTo(auditLg, &s.audit); err != nil {
		return nil, err
	}
	// Audit runs once the user is known and before impersonation and
	// authorization, so their refusals are recorded; impersonation adds
	// the impersonated user to the event.
	s.insecureHandler = withLifecycle(endpoints.WithRequestInfo(withUnsecuredUser(audit.WithAudit(auditLg, mux, s.audit))), s.life)
	h := authz.WithAuthorization(s.lg.Named("authz"), mux, z)
	h = apiauthn.WithImpersonation(lg, h, z)
	h = audit.WithAudit(auditLg, h, s.audit)
	h = apiauthn.WithAuthentication(lg, h, s.authn.Authenticator)
	h = audit.WithAuditInit(auditLg, h, s.audit)
	return withLifecycle(endpoints.WithRequestInfo(h), s.life), nil
}

// getSecret reads a Secret from the server's own store, for bootstrap
// tokens: from the watch cache when there is one.
func (s *Server) getSecret(ctx context.Context, ns, name string) (*corev1.Secret, error) {
	obj, err := s.store("", "secrets").GetCached(ctx, ns, name)
	if err != nil {
		return nil, err
	}
	sec, ok := obj.(*corev1.Secret)
	if !ok {
		return nil, fmt.Errorf("secrets store returned %T", obj)
	}
	return sec, nil
}

func (s *Server) listen() error {
	so := s.opts.Serving
	certFile, keyFile := so.TLSCertFile, so.TLSKeyFile
	if certFile == "" {
		var err error
		certFile, keyFile, err = certs.EnsureSelfSigned(so.CertDir, "apiserver", "platform-apiserver", []string{so.BindAddress.String()})
		if err != nil {
			return err
		}
	}
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return fmt.Errorf("load serving certificate: %w", err)
	}
	s.CertFile = certFile
	// Client certificates are requested, naming the trusted authorities,
	// but not verified by the handshake: the authentication chain verifies
	// them, so a bad certificate is a 401 rather than a failed handshake.
	s.tlsConfig = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12, NextProtos: []string{"h2", "http/1.1"},
		ClientAuth: tls.RequestClientCert, ClientCAs: s.authn.ClientCAs}
	s.secure, err = net.Listen("tcp", net.JoinHostPort(so.BindAddress.String(), strconv.Itoa(so.SecurePort)))
	if err != nil {
		return fmt.Errorf("--secure-port: %w", err)
	}
	if so.InsecurePort != 0 {
		port := max(so.InsecurePort, 0)
		s.insecure, err = net.Listen("tcp", net.JoinHostPort(so.InsecureAddress.String(), strconv.Itoa(port)))
		if err != nil {
			return fmt.Errorf("--insecure-port: %w", err)
		}
	}
	return nil
}

// SecureAddr is the HTTPS listener's address.
func (s *Server) SecureAddr() net.Addr { return s.secure.Addr() }

// InsecureAddr is the plain-HTTP listener's address, or nil when disabled.
func (s *Server) InsecureAddr() net.Addr {
	if s.insecure == nil {
		return nil
	}
	return s.insecure.Addr()
}

// Handler returns the full HTTP handler (for in-process tests).
func (s *Server) Handler() http.Handler { return s.handler }

// Run serves until ctx ends, then shuts down gracefully (see stop) and
// returns nil; it returns an error when a part of the server fails.
func (s *Server) Run(ctx context.Context) error {
	g, life := errgroup.WithContext(context.Background())
	life, endLife := context.WithCancel(life)
	defer endLife()
	for _, c := range s.cachers {
		g.Go(func() error { c.Run(life); return nil })
	}
	servers := []*http.Server{s.httpServer(s.tlsConfig, s.handler)}
	listeners := []net.Listener{tls.NewListener(s.secure, s.tlsConfig)}
	if s.insecure != nil {
		servers = append(servers, s.httpServer(nil, s.insecureHandler))
		listeners = append(listeners, s.insecure)
		s.lg.Warn("serving plain HTTP without authentication: for local development only", zap.Stringer("address", s.insecure.Addr()))
	}
	for i := range servers {
		srv, l := servers[i], listeners[i]
		g.Go(func() error {
			if err := srv.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
				return err
			}
			return nil
		})
	}
	if iv := s.opts.Etcd.CompactionInterval; iv > 0 {
		c := etcd3.NewCompactor(s.lg.Named("compactor"), s.etcd, s.opts.Etcd.Prefix+"/compact_rev_key", iv, s.registry)
		g.Go(func() error { c.Run(life); return nil })
	}
	g.Go(func() error { s.countObjects(life); return nil })
	if s.audit.Backend != nil {
		// life ends once the listeners have stopped: the backend then
		// flushes what it holds.
		g.Go(func() error { s.audit.Backend.Run(life); return nil })
	}
	bootstrap := s.startBootstrap(life, g)
	g.Go(func() error { s.rbac.policy.Run(life); return nil })
	g.Go(func() error { s.aggregator.Run(life); return nil })
	g.Go(func() error { s.crds.run(life); return nil })
	for _, run := range s.authzRunners {
		g.Go(func() error { run(life); return nil })
	}
	g.Go(func() error { return s.reconcileRBAC(life, bootstrap.ready) })
	s.lg.Info("serving", zap.Stringer("secure", s.secure.Addr()), zap.Stringer("advertise", s.opts.Generic.AdvertiseAddress))
	select {
	case <-ctx.Done():
		s.stop(servers, bootstrap)
	case <-life.Done():
		// A part failed: no grace, its error is returned below.
		s.closeServers(servers, time.Second)
	}
	endLife()
	err := g.Wait()
	s.Close()
	return err
}

func (s *Server) httpServer(tc *tls.Config, h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		TLSConfig:         tc,
		ReadHeaderTimeout: 30 * time.Second,
		MaxHeaderBytes:    1 << 20,
		ErrorLog:          zap.NewStdLog(s.lg.Named("http").WithOptions(zap.IncreaseLevel(zap.WarnLevel))),
		ConnState:         s.life.fresh.track,
	}
}

// countObjects publishes apiserver_storage_objects per resource, built-in
// and custom, every --etcd-count-metric-poll-period.
func (s *Server) countObjects(ctx context.Context) {
	period := s.opts.Etcd.CountMetricPollPeriod
	if period <= 0 {
		return
	}
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		for _, st := range s.stores {
			if st.Resource.Virtual != nil {
				continue
			}
			n, err := st.Count(ctx)
			if err == nil {
				s.objectCounts.WithLabelValues(st.Resource.GroupResource().String()).Set(float64(n))
			}
		}
		s.crds.countObjects(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Close releases etcd and listeners; Run calls it on the way out.
func (s *Server) Close() {
	if s.secure != nil {
		s.secure.Close()
	}
	if s.insecure != nil {
		s.insecure.Close()
	}
	if s.etcd != nil {
		s.etcd.Close()
	}
	if s.embedded != nil {
		s.embedded.Close()
	}
}
