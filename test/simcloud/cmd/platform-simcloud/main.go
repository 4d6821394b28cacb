// Command platform-simcloud serves the simulated cloud (test/simcloud) as
// a cloud provider plugin on --endpoint, the way
// platform-cloud-controller-manager starts it from --cloud-provider-binary.
// Its settings come from flags over the --cloud-config YAML file (fields
// named as in simcloud.Config); with a kubeconfig its load balancers
// forward to the endpoints the API server lists.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/pflag"
	"go.uber.org/zap"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/client"
	cloud "platform.io/client/cloudprovider"
	"platform.io/client/informer"
	"platform.io/client/rest"

	"platform.io/platform/test/simcloud"
)

// version is the provider's version in the handshake.
const version = "v1.0.0-simcloud"

// flags are the command's own flags besides the cloud's configuration.
type flags struct {
	endpoint, cloudConfig string
	verbose               bool
}

func main() { os.Exit(run(os.Args[1:])) }

// parse reads the flags over the --cloud-config file over the defaults.
func parse(args []string) (flags, *simcloud.Config, error) {
	bind := func(f *flags, cfg *simcloud.Config) *pflag.FlagSet {
		fs := pflag.NewFlagSet("platform-simcloud", pflag.ContinueOnError)
		fs.SetOutput(io.Discard)
		fs.StringVar(&f.endpoint, "endpoint", f.endpoint, "The socket to serve the plugin protocol on, unix:///path.")
		fs.StringVar(&f.cloudConfig, "cloud-config", f.cloudConfig, "YAML file of the cloud's settings; flags override it.")
		fs.BoolVar(&f.verbose, "v", false, "Log at debug level.")
		cfg.AddFlags(fs)
		return fs
	}
	var first flags
	if err := bind(&first, simcloud.NewConfig()).Parse(args); err != nil {
		return first, nil, err
	}
	var f flags
	cfg := simcloud.NewConfig()
	if first.cloudConfig != "" {
		if err := cfg.LoadFile(first.cloudConfig); err != nil {
			return f, nil, fmt.Errorf("--cloud-config: %w", err)
		}
	}
	if err := bind(&f, cfg).Parse(args); err != nil {
		return f, nil, err
	}
	if f.endpoint == "" {
		return f, nil, errors.New("--endpoint is required")
	}
	return f, cfg, cfg.Validate()
}

func run(args []string) int {
	f, cfg, err := parse(args)
	if errors.Is(err, pflag.ErrHelp) {
		fs := pflag.NewFlagSet("platform-simcloud", pflag.ContinueOnError)
		simcloud.NewConfig().AddFlags(fs)
		fmt.Fprintf(os.Stdout, "Usage of platform-simcloud (also --endpoint, --cloud-config, -v):\n%s", fs.FlagUsages())
		return 0
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "platform-simcloud:", err)
		return 2
	}
	lc := zap.NewProductionConfig()
	if f.verbose {
		lc.Level = zap.NewAtomicLevelAt(zap.DebugLevel)
	}
	lg, err := lc.Build()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer func() { _ = lg.Sync() }()
	lg = lg.Named("simcloud")
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := serve(ctx, lg, f, cfg); err != nil {
		lg.Error("Simulated cloud stopped", zap.Error(err))
		return 1
	}
	return 0
}

// serve runs the cloud, its endpoints informer and control endpoint, and
// the plugin server until ctx ends.
func serve(ctx context.Context, lg *zap.Logger, f flags, cfg *simcloud.Config) error {
	endpoints := simcloud.Endpoints(func(string, string, string) []string { return nil })
	if cfg.Kubeconfig != "" {
		rc, err := rest.ConfigFromFlags("", cfg.Kubeconfig)
		if err != nil {
			return fmt.Errorf("kubeconfig: %w", err)
		}
		rcl, err := rest.NewClient(rc)
		if err != nil {
			return fmt.Errorf("client: %w", err)
		}
		factory := informer.NewFactory(informer.Options{})
		inf, err := client.Inform(factory, client.NewSet(rcl).Endpoints)
		if err != nil {
			return err
		}
		factory.Start(ctx)
		defer factory.Shutdown()
		endpoints = simcloud.EndpointsFrom(informer.Lister[*corev1.Endpoints](inf.Lister()))
	} else {
		lg.Warn("no kubeconfig: load balancers have no backends")
	}
	c, err := simcloud.New(lg, *cfg, endpoints)
	if err != nil {
		return err
	}
	defer c.Close()
	if cfg.ControlAddress != "" {
		ln, err := net.Listen("tcp", cfg.ControlAddress)
		if err != nil {
			return fmt.Errorf("control address: %w", err)
		}
		srv := &http.Server{Handler: c.Handler(), ReadHeaderTimeout: 10 * time.Second}
		go func() { _ = srv.Serve(ln) }()
		defer func() { _ = srv.Close() }()
		lg.Info("Serving the control endpoint", zap.String("address", ln.Addr().String()))
	}
	lis, err := cloud.Listen(f.endpoint)
	if err != nil {
		return err
	}
	lg.Info("Serving the cloud provider plugin", zap.String("endpoint", f.endpoint), zap.String("name", cfg.Name),
		zap.Int("instances", cfg.Instances), zap.String("loadBalancerCIDR", cfg.LoadBalancerCIDR))
	return cloud.Serve(ctx, lis, c, version)
}
