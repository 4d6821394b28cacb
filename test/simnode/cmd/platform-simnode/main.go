// Command platform-simnode runs simulated nodes against an API server: it
// registers --nodes nodes, renews their leases, reports their status and
// runs the pods bound to them. With --control-address it serves
// POST /nodes/<name>/heartbeat/stop and .../resume to cut a node off from
// the control plane and bring it back (see simnode.Agent.Handler).
package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/spf13/pflag"
	"go.uber.org/zap"

	"platform.io/client/client"
	"platform.io/client/rest"

	"platform.io/platform/pkg/component/certs"
	"platform.io/platform/test/simnode"
)

// flags are the command's own flags besides the agent's.
type flags struct {
	kubeconfig, master string
	qps                float32
	burst              int
	controlAddress     string
	nodeCredentialsDir string
	certFile, keyFile  string
	verbose            bool
}

func main() { os.Exit(run(os.Args[1:])) }

func run(args []string) int {
	opts := simnode.NewOptions()
	f := flags{qps: 50, burst: 100}
	fs := pflag.NewFlagSet("platform-simnode", pflag.ContinueOnError)
	fs.StringVar(&f.kubeconfig, "kubeconfig", "", "Path to a kubeconfig file with the API server's address and credentials.")
	fs.StringVar(&f.master, "master", "", "The API server's address, overriding the kubeconfig's.")
	fs.Float32Var(&f.qps, "qps", f.qps, "Requests per second to the API server, for all nodes together (for each node with --node-credentials-dir).")
	fs.IntVar(&f.burst, "burst", f.burst, "Burst of requests to the API server above --qps.")
	fs.StringVar(&f.controlAddress, "control-address", "", "host:port of the control endpoint (stop/resume heartbeats); empty for none.")
	fs.StringVar(&f.nodeCredentialsDir, "node-credentials-dir", "", "Directory of a client certificate per node, <dir>/<node name>.crt and .key (user system:node:<name> in group system:nodes): each node then reaches the API server as itself, the kubeconfig giving only the server and its CA. Empty: every node uses the kubeconfig's credentials.")
	fs.StringVar(&f.certFile, "tls-cert-file", "", "Serving certificate of the nodes' resource metrics endpoints (--resource-metrics-address). Empty: a self-signed one is made at start.")
	fs.StringVar(&f.keyFile, "tls-private-key-file", "", "Key of --tls-cert-file.")
	fs.BoolVar(&f.verbose, "v", false, "Log at debug level.")
	opts.AddFlags(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return 0
		}
		return 2
	}
	cfg, err := opts.Config()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
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
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := serve(ctx, lg, f, cfg); err != nil {
		lg.Error("Simulated nodes stopped", zap.Error(err))
		return 1
	}
	return 0
}

// serve connects to the API server and runs the agent and its control
// endpoint until ctx ends.
func serve(ctx context.Context, lg *zap.Logger, f flags, cfg *simnode.Config) error {
	rc, err := rest.ConfigFromFlags(f.master, f.kubeconfig)
	if err != nil {
		return fmt.Errorf("client config: %w", err)
	}
	rc.QPS, rc.Burst = f.qps, f.burst
	if f.nodeCredentialsDir != "" {
		cfg.NodeClients = func(name string) (*client.Set, error) { return nodeClients(rc, f.nodeCredentialsDir, name) }
	}
	if cfg.ResourceMetricsAddress != "" {
		if cfg.ServingCert, err = servingCert(f, cfg.ResourceMetricsAddress); err != nil {
			return err
		}
	}
	shared, err := sharedClients(rc, f, cfg)
	if err != nil {
		return err
	}
	agent, err := simnode.New(lg, shared, *cfg)
	if err != nil {
		return err
	}
	if f.controlAddress != "" {
		ln, err := net.Listen("tcp", f.controlAddress)
		if err != nil {
			return fmt.Errorf("--control-address: %w", err)
		}
		srv := &http.Server{Handler: agent.Handler(), ReadHeaderTimeout: 10 * time.Second}
		go func() { _ = srv.Serve(ln) }()
		defer func() { _ = srv.Close() }()
		lg.Info("Serving the control endpoint", zap.String("address", ln.Addr().String()))
	}
	lg.Info("Running simulated nodes", zap.Int("nodes", cfg.Nodes), zap.Strings("zones", cfg.Zones))
	return agent.Run(ctx)
}

// servingCert loads the resource metrics endpoints' certificate, or makes
// a self-signed one for addr.
func servingCert(f flags, addr string) (*tls.Certificate, error) {
	if f.certFile != "" || f.keyFile != "" {
		cert, err := tls.LoadX509KeyPair(f.certFile, f.keyFile)
		if err != nil {
			return nil, fmt.Errorf("--tls-cert-file: %w", err)
		}
		return &cert, nil
	}
	p, err := certs.NewServing(nil, "platform-simnode", []string{addr})
	if err != nil {
		return nil, fmt.Errorf("self-signed certificate: %w", err)
	}
	cert, err := tls.X509KeyPair(p.CertPEM, p.KeyPEM)
	return &cert, err
}

// sharedClients are the clients of the agent's informers (pods bound to
// any node, and nodes): the kubeconfig's, or with per-node credentials
// those of the first node, as every node may list and watch them.
func sharedClients(rc *rest.Config, f flags, cfg *simnode.Config) (*client.Set, error) {
	if cfg.NodeClients != nil && cfg.Nodes > 0 {
		return cfg.NodeClients(cfg.NamePrefix + "0")
	}
	rcl, err := rest.NewClient(rc)
	if err != nil {
		return nil, fmt.Errorf("client: %w", err)
	}
	return client.NewSet(rcl), nil
}

// nodeClients returns clients that authenticate with node name's
// certificate in dir, to the server of rc, with a rate limit of its own
// (rc's QPS and burst), as a real node agent has.
func nodeClients(rc *rest.Config, dir, name string) (*client.Set, error) {
	c := *rc
	c.TLS.CertFile, c.TLS.KeyFile = filepath.Join(dir, name+".crt"), filepath.Join(dir, name+".key")
	c.TLS.CertData, c.TLS.KeyData = nil, nil
	c.BearerToken, c.BearerTokenFile = "", ""
	rcl, err := rest.NewClient(&c)
	if err != nil {
		return nil, fmt.Errorf("client of node %s: %w", name, err)
	}
	return client.NewSet(rcl), nil
}
