package run

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"go.uber.org/zap"
	"golang.org/x/sync/errgroup"
)

// Runnable is a part of the daemon that runs until its context ends.
type Runnable interface {
	Run(ctx context.Context) error
}

// Func adapts a function to a Runnable.
type Func func(ctx context.Context) error

var _ Runnable = Func(nil)

// Run calls f.
func (f Func) Run(ctx context.Context) error { return f(ctx) }

// shutdownNotifier is a server that wants to know when shutdown begins.
type shutdownNotifier interface{ BeginShutdown() }

// DefaultShutdownTimeout bounds a shutdown when Config gives none.
const DefaultShutdownTimeout = 30 * time.Second

// Config lists the parts and the shutdown hooks; every field is optional.
type Config struct {
	// Server runs from the start to the very end.
	Server Runnable
	// Components run until the hooks have run.
	Components []Runnable
	// StopLeading and Drain are called in this order when shutdown begins.
	StopLeading func(ctx context.Context) error
	Drain       func(ctx context.Context) error
	// ShutdownTimeout bounds the shutdown; 0 means DefaultShutdownTimeout.
	ShutdownTimeout time.Duration
	// Signals begin the shutdown; nil means SIGTERM and SIGINT.
	Signals []os.Signal
}

// Run runs cfg's parts until shutdown, as the package documentation says.
func Run(ctx context.Context, lg *zap.Logger, cfg Config) error {
	if cfg.ShutdownTimeout <= 0 {
		cfg.ShutdownTimeout = DefaultShutdownTimeout
	}
	if cfg.Signals == nil {
		cfg.Signals = []os.Signal{syscall.SIGTERM, syscall.SIGINT}
	}
	sigCtx, stopSignals := signal.NotifyContext(ctx, cfg.Signals...)
	defer stopSignals()

	serverCtx, stopServer := context.WithCancel(context.WithoutCancel(ctx))
	defer stopServer()
	serverDone := make(chan error, 1)
	go func() { serverDone <- runServer(serverCtx, cfg.Server) }()

	compCtx, stopComponents := context.WithCancel(context.WithoutCancel(ctx))
	defer stopComponents()
	g, gctx := errgroup.WithContext(compCtx)
	for _, c := range cfg.Components {
		g.Go(func() error { return c.Run(gctx) })
	}

	var serverErr error
	select {
	case <-sigCtx.Done():
		lg.Info("shutting down", zap.String("cause", cause(ctx)))
	case <-gctx.Done():
		lg.Info("shutting down after a component failed")
	case serverErr = <-serverDone:
		lg.Info("shutting down after the server stopped", zap.Error(serverErr))
		serverDone = nil
	}
	stopSignals()
	return shutdown(lg, cfg, g, stopComponents, stopServer, serverDone, serverErr)
}

// shutdown runs the hooks, then stops the components, then the server.
func shutdown(lg *zap.Logger, cfg Config, g *errgroup.Group, stopComponents, stopServer context.CancelFunc,
	serverDone <-chan error, serverErr error) error {
	ctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	if n, ok := cfg.Server.(shutdownNotifier); ok {
		n.BeginShutdown()
	}
	var errs []error
	for _, h := range []struct {
		name string
		fn   func(context.Context) error
	}{{"stop leading", cfg.StopLeading}, {"drain", cfg.Drain}} {
		if h.fn == nil {
			continue
		}
		lg.Info("shutdown step", zap.String("step", h.name))
		if err := h.fn(ctx); err != nil {
			errs = append(errs, fmt.Errorf("run: %s: %w", h.name, err))
		}
	}
	stopComponents()
	compErr := wait(ctx, g.Wait)
	stopServer()
	if serverDone != nil {
		serverErr = wait(ctx, func() error { return <-serverDone })
	}
	errs = append([]error{quiet(compErr), quiet(serverErr)}, errs...)
	err := errors.Join(errs...)
	if err != nil {
		lg.Warn("shut down with errors", zap.Error(err))
	} else {
		lg.Info("shut down")
	}
	return err
}

// runServer runs s, or waits for ctx when there is none.
func runServer(ctx context.Context, s Runnable) error {
	if s == nil {
		<-ctx.Done()
		return nil
	}
	return s.Run(ctx)
}

// wait returns fn's result, or an error once ctx ends first.
func wait(ctx context.Context, fn func() error) error {
	done := make(chan error, 1)
	go func() { done <- fn() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return fmt.Errorf("run: shutdown timed out: %w", ctx.Err())
	}
}

// quiet drops the cancellations a shutdown causes.
func quiet(err error) error {
	if errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
		return nil
	}
	return err
}

// cause says why the signal context ended.
func cause(parent context.Context) string {
	if parent.Err() != nil {
		return "parent context done"
	}
	return "signal"
}
