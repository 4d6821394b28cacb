// Package app wires platform-scheduler: its own options and configuration
// file over the shared daemon options, the scheduler built from them, and
// the deprecated insecure health and metrics endpoint.
package app

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.uber.org/zap"

	"platform.io/client/informer"

	"platform.io/platform/pkg/component/daemon"
	"platform.io/platform/pkg/component/options"
	"platform.io/platform/pkg/component/run"
	"platform.io/platform/pkg/scheduler"
	"platform.io/platform/pkg/scheduler/metrics"
	"platform.io/platform/pkg/scheduler/plugins"
	"platform.io/platform/pkg/scheduler/runtime"
)

// Spec returns the daemon's description for the shared runner.
func Spec() daemon.Spec {
	return daemon.Spec{
		Name:  "platform-scheduler",
		Short: "Place pods on nodes",
		Long: `platform-scheduler watches pods whose spec.schedulerName names one of its
profiles and that are not bound yet, chooses a node for each under resource,
quality-of-service, constraint, affinity and anti-affinity, data-locality and
deadline requirements, and binds it through the API server.`,
		Defaults:   options.SchedulerDefaults(),
		NewOptions: func() daemon.Options { return NewOptions() },
		New:        New,
	}
}

// New builds the scheduler from d (d.Own is *Options) and starts the
// insecure endpoint, which serves until ctx ends, leader or not.
func New(ctx context.Context, d *daemon.Deps) (run.Runnable, error) {
	o, ok := d.Own.(*Options)
	if !ok {
		return nil, errors.New("scheduler: options are not the scheduler's")
	}
	s, err := NewScheduler(d, o)
	if err != nil {
		return nil, err
	}
	if err := logSynced(ctx, d.Logger, d.Informers); err != nil {
		return nil, err
	}
	if o.Port != 0 {
		if err := serveInsecure(ctx, d, net.JoinHostPort(o.Address, strconv.Itoa(o.Port))); err != nil {
			return nil, err
		}
	}
	return run.Func(s.Run), nil
}

// NewScheduler builds the scheduler and declares its informers on
// d.Informers.
func NewScheduler(d *daemon.Deps, o *Options) (*scheduler.Scheduler, error) {
	m, err := metrics.New(d.Registry)
	if err != nil {
		return nil, err
	}
	cfg := o.Configuration()
	for _, p := range cfg.Profiles {
		d.Logger.Info("profile", zap.String("schedulerName", p.SchedulerName))
	}
	s, err := scheduler.New(scheduler.Options{
		Logger: d.Logger, Clients: d.Clients, Informers: d.Informers, Recorder: d.Recorder, Metrics: m,
		Config: cfg, Registry: plugins.NewRegistry(), HardPodAffinitySymmetricWeight: o.HardPodAffinitySymmetricWeight,
	})
	if err != nil && o.Config != "" && errors.Is(err, runtime.ErrConfig) {
		// A plugin rejected its pluginConfig args: name the file.
		return nil, fmt.Errorf("--config %s: %w", o.Config, err)
	}
	return s, err
}

// logSynced logs each informer declared so far once it has synced, with
// the time since now, until ctx ends. Leader or not, the informers run, so
// the lines show a standby getting warm as well as a cold start's phases.
func logSynced(ctx context.Context, lg *zap.Logger, f *informer.Factory) error {
	start := time.Now()
	for _, key := range f.Keys() {
		synced, err := f.Synced(key)
		if err != nil {
			return err
		}
		go func() {
			select {
			case <-synced:
				lg.Info("informer synced", zap.String("resource", key), zap.Duration("after", time.Since(start)))
			case <-ctx.Done():
			}
		}()
	}
	return nil
}

// serveInsecure serves /healthz and /metrics, and nothing else, over plain
// HTTP on addr until ctx ends.
func serveInsecure(ctx context.Context, d *daemon.Deps, addr string) error {
	g, ok := d.Registry.(prometheus.Gatherer)
	if !ok {
		return errors.New("--port: the metrics registry cannot be gathered")
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("ok"))
	})
	mux.Handle("GET /metrics", promhttp.HandlerFor(g, promhttp.HandlerOpts{}))
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("--port: %w", err)
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	d.Logger.Warn("serving insecurely; --port is deprecated", zap.String("address", l.Addr().String()))
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	go func() {
		if err := srv.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
			d.Logger.Error("insecure endpoint", zap.Error(err))
		}
	}()
	return nil
}
