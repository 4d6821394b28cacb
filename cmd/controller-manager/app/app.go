// Package app wires platform-controller-manager: the shared daemon options,
// --controllers, each loop's own flags, and the loops chosen to run.
package app

import (
	"context"
	"errors"
	"fmt"

	"go.uber.org/zap"
	"golang.org/x/sync/errgroup"

	"platform.io/client/discovery"
	"platform.io/client/rest"

	"platform.io/platform/pkg/component/daemon"
	"platform.io/platform/pkg/component/options"
	"platform.io/platform/pkg/component/run"
	"platform.io/platform/pkg/controller"
	"platform.io/platform/pkg/controller/sacredentials"
)

// Spec returns the daemon's description for the shared runner.
func Spec() daemon.Spec { return spec(Descriptors()) }

func spec(table []controller.Descriptor) daemon.Spec {
	return daemon.Spec{
		Name:  "platform-controller-manager",
		Short: "Run the cluster's core control loops",
		Long: `platform-controller-manager watches the shared state of the cluster through
the API server and runs the control loops that move the current state
toward the desired state: deployments, replica sets, stateful sets, daemon
sets, jobs, cron jobs, endpoints, garbage collection, namespaces, nodes.`,
		Defaults:   options.ControllerManagerDefaults(),
		NewOptions: func() daemon.Options { return NewOptions(table) },
		New: func(ctx context.Context, d *daemon.Deps) (run.Runnable, error) {
			return newManager(ctx, d, table, d.Own.(*Options))
		},
	}
}

// newManager builds every enabled loop; the Runnable runs them all and
// ends when the first fails or ctx ends.
func newManager(ctx context.Context, d *daemon.Deps, table []controller.Descriptor, o *Options) (run.Runnable, error) {
	var loops []namedRunnable
	var tokens *sacredentials.Provider
	if o.UseServiceAccountCredentials {
		var err error
		if tokens, err = sacredentials.New(d.Logger.Named("tokens"), d.Config, d.REST); err != nil {
			return nil, err
		}
		loops = append(loops, namedRunnable{"service-account-tokens", run.Func(tokens.Run)})
	}
	// One discovery view for every loop that reads it (the garbage
	// collector, namespace deletion, the autoscaler's scale targets), read
	// with the manager's own identity.
	disc := discovery.NewSet(d.REST, nil)
	for i, desc := range table {
		if !controller.Enabled(o.Controllers, desc.Name, desc.DisabledByDefault) {
			d.Logger.Info("controller disabled", zap.String("controller", desc.Name))
			continue
		}
		deps, err := loopDeps(ctx, d, tokens, desc.Name)
		if err != nil {
			return nil, fmt.Errorf("controller %s: %w", desc.Name, err)
		}
		r, err := desc.New(controller.Context{Deps: deps, Discovery: disc}, o.loops[i])
		if err != nil {
			return nil, fmt.Errorf("controller %s: %w", desc.Name, err)
		}
		loops = append(loops, namedRunnable{desc.Name, r})
		d.Logger.Info("controller enabled", zap.String("controller", desc.Name))
	}
	if len(loops) == 0 || tokens != nil && len(loops) == 1 {
		return nil, errors.New("--controllers: no controller is enabled")
	}
	return run.Func(func(ctx context.Context) error {
		if tokens != nil {
			defer func() { _ = tokens.Close() }()
		}
		return runAll(ctx, d.Logger, loops)
	}), nil
}

// loopDeps is what loop is built from: d itself, or with tokens, d with a
// work client authenticated as the loop's service account.
func loopDeps(ctx context.Context, d *daemon.Deps, tokens *sacredentials.Provider, loop string) (*daemon.Deps, error) {
	if tokens == nil {
		return d, nil
	}
	account := ServiceAccount(loop)
	if account == "" {
		return nil, errors.New("no service account is known for it")
	}
	cfg, err := tokens.Config(ctx, account)
	if err != nil {
		return nil, err
	}
	rc, err := rest.NewClient(cfg)
	if err != nil {
		return nil, fmt.Errorf("client of service account %s: %w", account, err)
	}
	d.Logger.Info("controller uses its service account", zap.String("controller", loop),
		zap.String("user", "system:serviceaccount:"+sacredentials.Namespace+":"+account))
	return d.WithREST(rc), nil
}

type namedRunnable struct {
	name string
	r    run.Runnable
}

// runAll runs the loops until ctx ends; a loop that fails ends them all.
func runAll(ctx context.Context, lg *zap.Logger, loops []namedRunnable) error {
	g, ctx := errgroup.WithContext(ctx)
	for _, l := range loops {
		g.Go(func() error {
			if err := l.r.Run(ctx); err != nil {
				lg.Error("controller failed", zap.String("controller", l.name), zap.Error(err))
				return fmt.Errorf("controller %s: %w", l.name, err)
			}
			return nil
		})
	}
	return g.Wait()
}
