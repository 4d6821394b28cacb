package server

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	authzv1 "platform.io/client/api/authorization/v1"

	"platform.io/platform/pkg/component/authn"
	"platform.io/platform/pkg/component/authz"
	"platform.io/platform/pkg/component/healthz"
	"platform.io/platform/pkg/component/status"
)

// DefaultShutdownTimeout is how long Run waits for requests in flight.
const DefaultShutdownTimeout = 10 * time.Second

// Config is what the server serves and how.
type Config struct {
	// Listener is where HTTPS is served; nil disables serving, and Run
	// then only waits for its context.
	Listener net.Listener
	// Cert is the serving certificate; required with a Listener.
	Cert *tls.Certificate
	// Authenticator and Authorizer guard every request; required.
	Authenticator authn.Authenticator
	Authorizer    authz.Authorizer
	// EnableProfiling serves /debug/pprof/; EnableContentionProfiling also
	// turns on block profiling for the whole process.
	EnableProfiling           bool
	EnableContentionProfiling bool
	// Gatherer is served on /metrics; nil uses the Registerer given to New
	// when it is a Gatherer too.
	Gatherer prometheus.Gatherer
	// Checks are served on /healthz, /livez and /readyz; ReadyChecks on
	// /readyz only.
	Checks      []healthz.Check
	ReadyChecks []healthz.Check
	// LeaderElection adds the "leaderElection" check to all three, passing
	// until SetLeaderElectionCheck gives it a function.
	LeaderElection bool
	// ShutdownTimeout bounds the graceful shutdown; 0 means
	// DefaultShutdownTimeout.
	ShutdownTimeout time.Duration
}

// Server serves a daemon's secure endpoint.
type Server struct {
	lg       *zap.Logger
	cfg      Config
	mux      *http.ServeMux
	handler  http.Handler
	health   *healthz.Set
	live     *healthz.Set
	ready    *healthz.Set
	leader   healthz.Slot
	stopping atomic.Bool
	// resolvers recognize the API resources HandleAPI serves; set before
	// Run, read-only after.
	resolvers []authz.ResourceResolver
}

// New returns a server for cfg, its metrics handler reporting on reg.
func New(lg *zap.Logger, reg prometheus.Registerer, cfg Config) (*Server, error) {
	if err := cfg.check(reg); err != nil {
		return nil, err
	}
	if cfg.ShutdownTimeout <= 0 {
		cfg.ShutdownTimeout = DefaultShutdownTimeout
	}
	if cfg.Gatherer == nil {
		cfg.Gatherer = reg.(prometheus.Gatherer)
	}
	s := &Server{lg: lg, cfg: cfg, mux: http.NewServeMux()}
	if err := s.installHealth(); err != nil {
		return nil, err
	}
	s.mux.Handle("/metrics", promhttp.HandlerFor(cfg.Gatherer, promhttp.HandlerOpts{Registry: reg}))
	if cfg.EnableProfiling {
		InstallProfiling(s.mux, cfg.EnableContentionProfiling)
	}
	s.handler = withRecovery(lg, authn.WithAuthentication(lg, authz.WithResourceAuthorization(lg, s.mux, cfg.Authorizer, s.resolve), cfg.Authenticator))
	return s, nil
}

// check reports missing parts of cfg.
func (cfg *Config) check(reg prometheus.Registerer) error {
	var errs []error
	if cfg.Listener != nil && cfg.Cert == nil {
		errs = append(errs, errors.New("a serving certificate is required"))
	}
	if cfg.Authenticator == nil || cfg.Authorizer == nil {
		errs = append(errs, errors.New("an authenticator and an authorizer are required"))
	}
	if _, ok := reg.(prometheus.Gatherer); cfg.Gatherer == nil && !ok {
		errs = append(errs, errors.New("no Gatherer given and the Registerer is none"))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("server: %w", err)
	}
	return nil
}

// installHealth serves the three health endpoints.
func (s *Server) installHealth() error {
	common := append([]healthz.Check{healthz.Ping()}, s.cfg.Checks...)
	if s.cfg.LeaderElection {
		common = append(common, s.leader.Check("leaderElection"))
	}
	shutdown := healthz.Check{Name: "shutdown", Check: func(*http.Request) error {
		if s.stopping.Load() {
			return healthz.ErrShuttingDown
		}
		return nil
	}}
	var err error
	if s.health, err = healthz.NewSet("healthz", common...); err != nil {
		return err
	}
	if s.live, err = healthz.NewSet("livez", common...); err != nil {
		return err
	}
	ready := append(append(append([]healthz.Check{}, common...), s.cfg.ReadyChecks...), shutdown)
	if s.ready, err = healthz.NewSet("readyz", ready...); err != nil {
		return err
	}
	for _, set := range []*healthz.Set{s.health, s.live, s.ready} {
		set.Install(s.lg, s.mux)
	}
	return nil
}

// InstallProfiling serves the pprof handlers on mux, under /debug/pprof/,
// and with contention on records block profiles for the whole process.
func InstallProfiling(mux *http.ServeMux, contention bool) {
	mux.Handle("/debug/pprof", http.RedirectHandler("/debug/pprof/", http.StatusFound))
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	if contention {
		runtime.SetBlockProfileRate(1)
	}
}

// Handle serves h at pattern, behind the same filters; call it before Run.
func (s *Server) Handle(pattern string, h http.Handler) { s.mux.Handle(pattern, h) }

// HandleAPI serves h at pattern, behind the same filters, authorizing the
// requests resolve recognizes as requests to API resources (a
// SubjectAccessReview with resourceAttributes) and the others by path;
// call it before Run.
func (s *Server) HandleAPI(pattern string, h http.Handler, resolve authz.ResourceResolver) {
	s.resolvers = append(s.resolvers, resolve)
	s.mux.Handle(pattern, h)
}

// resolve asks each HandleAPI resolver in turn.
func (s *Server) resolve(r *http.Request) *authzv1.ResourceAttributes {
	for _, f := range s.resolvers {
		if ra := f(r); ra != nil {
			return ra
		}
	}
	return nil
}

// AddChecks adds checks to /healthz, /livez and /readyz.
func (s *Server) AddChecks(checks ...healthz.Check) error {
	for _, set := range []*healthz.Set{s.health, s.live, s.ready} {
		if err := set.Add(checks...); err != nil {
			return err
		}
	}
	return nil
}

// AddReadyChecks adds checks to /readyz.
func (s *Server) AddReadyChecks(checks ...healthz.Check) error { return s.ready.Add(checks...) }

// SetLeaderElectionCheck gives the "leaderElection" check its function;
// it has no effect unless Config.LeaderElection was set.
func (s *Server) SetLeaderElectionCheck(fn func(*http.Request) error) { s.leader.Set(fn) }

// BeginShutdown makes /readyz fail from now on.
func (s *Server) BeginShutdown() { s.stopping.Store(true) }

// Handler is the whole filtered handler, for in-process tests.
func (s *Server) Handler() http.Handler { return s.handler }

// Addr is the listener's address, nil when serving is disabled.
func (s *Server) Addr() net.Addr {
	if s.cfg.Listener == nil {
		return nil
	}
	return s.cfg.Listener.Addr()
}

// Run serves until ctx ends, then shuts down gracefully.
func (s *Server) Run(ctx context.Context) error {
	if s.cfg.Listener == nil {
		<-ctx.Done()
		return nil
	}
	errorLog, err := zap.NewStdLogAt(s.lg.Named("http"), zapcore.DebugLevel)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           s.handler,
		TLSConfig:         tlsConfig(s.cfg.Cert),
		ReadHeaderTimeout: 32 * time.Second,
		IdleTimeout:       90 * time.Second,
		MaxHeaderBytes:    1 << 20,
		ErrorLog:          errorLog,
	}
	done := make(chan error, 1)
	go func() { done <- srv.ServeTLS(s.cfg.Listener, "", "") }()
	s.lg.Info("serving securely", zap.Stringer("address", s.cfg.Listener.Addr()))
	select {
	case err := <-done:
		return fmt.Errorf("server: %w", err)
	case <-ctx.Done():
	}
	s.BeginShutdown()
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.cfg.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		s.lg.Warn("requests still in flight at shutdown were cut", zap.Error(err))
		srv.Close()
	}
	if serveErr := <-done; !errors.Is(serveErr, http.ErrServerClosed) {
		return fmt.Errorf("server: %w", serveErr)
	}
	s.lg.Info("stopped serving")
	return nil
}

// tlsConfig accepts TLS 1.2 and later, asks for client certificates
// without requiring them, and offers HTTP/2.
func tlsConfig(cert *tls.Certificate) *tls.Config {
	return &tls.Config{
		Certificates: []tls.Certificate{*cert},
		MinVersion:   tls.VersionTLS12,
		ClientAuth:   tls.RequestClientCert,
		NextProtos:   []string{"h2", "http/1.1"},
	}
}

// withRecovery answers 500 when a handler panics, logging the panic.
func withRecovery(lg *zap.Logger, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				lg.Error("handler panicked", zap.String("path", r.URL.Path), zap.Any("panic", v), zap.Stack("stack"))
				status.InternalError(w, fmt.Errorf("panic serving %s", r.URL.Path))
			}
		}()
		h.ServeHTTP(w, r)
	})
}
