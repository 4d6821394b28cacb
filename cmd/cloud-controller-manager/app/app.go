// Package app wires platform-cloud-controller-manager: the shared daemon
// options, the cloud provider plugin, --controllers, each loop's flags, and
// the loops chosen to run once the provider has answered the handshake.
package app

import (
	"context"
	"errors"
	"fmt"

	"go.uber.org/zap"
	"golang.org/x/sync/errgroup"

	cloud "platform.io/client/cloudprovider"

	"platform.io/platform/pkg/cloudprovider"
	"platform.io/platform/pkg/cloudprovider/plugin"
	"platform.io/platform/pkg/component/daemon"
	"platform.io/platform/pkg/component/options"
	"platform.io/platform/pkg/component/run"
	"platform.io/platform/pkg/component/version"
	"platform.io/platform/pkg/controller"
)

// Spec returns the daemon's description for the shared runner.
func Spec() daemon.Spec { return spec(Descriptors()) }

func spec(table []cloudprovider.Descriptor) daemon.Spec {
	return daemon.Spec{
		Name:  "platform-cloud-controller-manager",
		Short: "Run the cloud-specific control loops",
		Long: `platform-cloud-controller-manager runs the control loops that depend on the
cloud the cluster runs in: cloud-node (initializes nodes from their
instances), cloud-node-lifecycle (shut-down and deleted instances), route
(pod CIDR routes) and service (load balancers). The cloud provider runs as a
separate process, reached over a gRPC plugin protocol on a Unix socket.`,
		Defaults:   options.CloudControllerManagerDefaults(),
		NewOptions: func() daemon.Options { return NewOptions(table) },
		New: func(ctx context.Context, d *daemon.Deps) (run.Runnable, error) {
			return New(ctx, d, table)
		},
	}
}

// New starts the provider plugin (it runs, leader or not, until ctx ends),
// builds every enabled loop, and returns the Runnable that runs them once
// the provider has answered.
func New(ctx context.Context, d *daemon.Deps, table []cloudprovider.Descriptor) (run.Runnable, error) {
	o, ok := d.Own.(*Options)
	if !ok {
		return nil, errors.New("cloud-controller-manager: options are not the cloud controller manager's")
	}
	p, err := plugin.New(d.Logger.Named("cloud-provider"), d.Registry, *o.Cloud, version.Get().GitVersion)
	if err != nil {
		return nil, err
	}
	if d.Server != nil {
		if err := d.Server.AddReadyChecks(p.ReadyCheck()); err != nil {
			return nil, err
		}
	}
	go func() { _ = p.Run(ctx) }()
	c := cloudprovider.Context{Context: controller.Context{Deps: d}, Cloud: p.Provider(), ClusterName: o.ClusterName}
	var loops []loop
	for i, desc := range table {
		if !controller.Enabled(o.Controllers, desc.Name, false) {
			d.Logger.Info("controller disabled", zap.String("controller", desc.Name))
			continue
		}
		r, err := desc.New(c, o.loops[i])
		if err != nil {
			return nil, fmt.Errorf("controller %s: %w", desc.Name, err)
		}
		loops = append(loops, loop{desc.Name, desc.Needs, r})
	}
	if len(loops) == 0 {
		return nil, errors.New("--controllers: no controller is enabled")
	}
	return run.Func(func(ctx context.Context) error {
		info, err := p.Wait(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		return runAll(ctx, d.Logger, info, loops)
	}), nil
}

type loop struct {
	name  string
	needs cloudprovider.Part
	r     run.Runnable
}

// runAll runs the loops the provider can serve until ctx ends; a loop that
// fails ends them all.
func runAll(ctx context.Context, lg *zap.Logger, info cloud.HandshakeInfo, loops []loop) error {
	g, ctx := errgroup.WithContext(ctx)
	started := 0
	for _, l := range loops {
		if !cloudprovider.Has(info, l.needs) {
			lg.Warn("controller not started: the cloud provider does not implement what it needs",
				zap.String("controller", l.name), zap.String("needs", string(l.needs)))
			continue
		}
		started++
		lg.Info("controller started", zap.String("controller", l.name))
		g.Go(func() error {
			if err := l.r.Run(ctx); err != nil {
				lg.Error("controller failed", zap.String("controller", l.name), zap.Error(err))
				return fmt.Errorf("controller %s: %w", l.name, err)
			}
			return nil
		})
	}
	if started == 0 {
		lg.Warn("no controller can run with this cloud provider")
	}
	return g.Wait()
}
