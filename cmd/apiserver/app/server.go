// Package app builds the platform-apiserver command: its flags, their
// validation, and the wiring from options to a running server.
package app

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
	"go.uber.org/zap"

	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/pkg/apiserver/server"
	"platform.io/platform/pkg/component/cli"
	componentoptions "platform.io/platform/pkg/component/options"
	"platform.io/platform/pkg/component/version"
)

// name is the binary's name, in --version and the logs.
const name = "platform-apiserver"

// NewCommand returns the platform-apiserver command.
func NewCommand() *cobra.Command {
	o := options.New()
	ver := componentoptions.NewVersion()
	cmd := &cobra.Command{
		Use:   name,
		Short: "Serve the cluster's resource API over etcd",
		Long: `platform-apiserver validates and stores the cluster's API objects in etcd
and serves the resource API (create, read, replace, patch, delete, list)
to every other component and to clients such as kubectl.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if ver.PrintIfRequested(cmd.OutOrStdout(), name) {
				return nil
			}
			if err := o.Complete(); err != nil {
				return err
			}
			if err := o.Validate(); err != nil {
				return &flagError{err}
			}
			lg, err := o.Logging.Build()
			if err != nil {
				return err
			}
			defer lg.Sync()
			ctx, stop := shutdownContext(cmd.Context(), lg)
			defer stop()
			return run(ctx, lg, o)
		},
	}
	cli.AddGroups(cmd, append(o.FlagSets(), cli.Group("Misc", ver.AddFlags)))
	return cmd
}

func run(ctx context.Context, lg *zap.Logger, o *options.Options) error {
	lg.Info("starting", zap.String("version", version.Get().GitVersion))
	s, err := server.New(ctx, lg, o)
	if err != nil {
		return err
	}
	return s.Run(ctx)
}

// shutdownContext returns a context that ends at the first SIGTERM or
// SIGINT, which starts the graceful shutdown; a second signal exits at once
// with code 1, as upstream does.
func shutdownContext(parent context.Context, lg *zap.Logger) (context.Context, func()) {
	ctx, cancel := context.WithCancel(parent)
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case <-signals:
			cancel()
		case <-done:
			return
		}
		select {
		case <-signals:
			lg.Warn("second signal during the graceful shutdown: exiting at once")
			_ = lg.Sync()
			os.Exit(1)
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(signals)
		close(done)
		cancel()
	}
}

// flagError marks an error in the flags, which exits with code 2.
type flagError struct{ err error }

func (e *flagError) Error() string { return e.err.Error() }

// Main runs the command with args and returns the process exit code.
func Main(args []string) int {
	cmd := NewCommand()
	cmd.SetArgs(args)
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &flagError{err} })
	if err := cmd.Execute(); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		if _, ok := err.(*flagError); ok {
			return 2
		}
		return 1
	}
	return 0
}
