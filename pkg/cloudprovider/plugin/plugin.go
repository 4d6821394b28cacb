package plugin

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"
	"google.golang.org/grpc/credentials/insecure"

	cloud "platform.io/client/cloudprovider"

	"platform.io/platform/pkg/component/healthz"
)

// ErrWrongProvider: the plugin reported a name other than --cloud-provider.
var ErrWrongProvider = errors.New("plugin: the provider's name is not --cloud-provider")

// Handshake retries back off from handshakeBase to handshakeMax.
const (
	handshakeBase = 100 * time.Millisecond
	handshakeMax  = 5 * time.Second
	readyTimeout  = 2 * time.Second
)

// Plugin is a cloud provider served out of process.
type Plugin struct {
	lg       *zap.Logger
	opts     Options
	endpoint string
	conn     *grpc.ClientConn
	remote   *cloud.Remote
	launcher *launcher // nil when the provider runs on its own
	tmpDir   string    // the socket's directory, when the daemon made it
	// shaken is closed after the first good handshake, which sets info.
	shaken chan struct{}
	info   cloud.HandshakeInfo
	err    error // set, with shaken closed, when the handshake cannot succeed
}

// New returns the plugin of opts (validated), its calls recorded in reg.
// Nothing is dialed or started until Run.
func New(lg *zap.Logger, reg prometheus.Registerer, opts Options, daemonVersion string) (*Plugin, error) {
	m, err := newCallMetrics(reg)
	if err != nil {
		return nil, fmt.Errorf("plugin metrics: %w", err)
	}
	p := &Plugin{lg: lg, opts: opts, endpoint: opts.Endpoint, shaken: make(chan struct{})}
	if opts.Binary != "" {
		if p.endpoint == "" {
			dir, err := os.MkdirTemp("", "cloud-provider-")
			if err != nil {
				return nil, fmt.Errorf("plugin socket directory: %w", err)
			}
			p.tmpDir, p.endpoint = dir, "unix://"+filepath.Join(dir, "provider.sock")
		}
		p.launcher = &launcher{lg: lg.Named("launcher"), binary: opts.Binary, endpoint: p.endpoint, config: opts.Config}
	}
	p.conn, err = grpc.NewClient(p.endpoint,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithUnaryInterceptor(m.intercept),
		// Reconnect soon after a provider restarts, not minutes later.
		grpc.WithConnectParams(grpc.ConnectParams{Backoff: backoff.Config{
			BaseDelay: 50 * time.Millisecond, Multiplier: 1.6, Jitter: 0.2, MaxDelay: time.Second,
		}, MinConnectTimeout: time.Second}))
	if err != nil {
		return nil, fmt.Errorf("plugin %s: %w", p.endpoint, err)
	}
	p.remote = cloud.NewRemote(p.conn, opts.CallTimeout, daemonVersion)
	return p, nil
}

// Provider is the provider; its parts are known after the handshake.
func (p *Plugin) Provider() cloud.Interface { return p.remote }

// Endpoint is the socket the provider serves.
func (p *Plugin) Endpoint() string { return p.endpoint }

// Run starts the provider binary, if any, and shakes hands with the
// provider, retrying until it answers; then it keeps the binary running
// until ctx ends and closes the connection.
func (p *Plugin) Run(ctx context.Context) error {
	defer p.conn.Close()
	done := make(chan struct{})
	if p.launcher != nil {
		go func() { defer close(done); p.launcher.run(ctx) }()
	} else {
		close(done)
	}
	p.handshake(ctx)
	<-ctx.Done()
	<-done
	if p.tmpDir != "" {
		_ = os.RemoveAll(p.tmpDir)
	}
	return nil
}

// handshake retries until the provider answers or ctx ends.
func (p *Plugin) handshake(ctx context.Context) {
	delay := handshakeBase
	for {
		info, err := p.remote.Handshake(ctx)
		switch {
		case err == nil && info.ProviderName != p.opts.Provider:
			p.err = fmt.Errorf("%w: provider at %s is %q, want %q", ErrWrongProvider, p.endpoint, info.ProviderName, p.opts.Provider)
			close(p.shaken)
			return
		case err == nil:
			p.info = info
			p.lg.Info("cloud provider connected", zap.String("provider", info.ProviderName),
				zap.String("providerVersion", info.ProviderVersion), zap.Uint32("protocolVersion", info.ProtocolVersion),
				zap.Bool("instances", info.Instances), zap.Bool("zones", info.Zones),
				zap.Bool("loadBalancers", info.LoadBalancers), zap.Bool("routes", info.Routes))
			close(p.shaken)
			return
		}
		p.lg.Info("cloud provider handshake failed, will retry", zap.String("endpoint", p.endpoint), zap.Duration("after", delay), zap.Error(err))
		select {
		case <-ctx.Done():
			return
		case <-time.After(delay):
		}
		delay = min(2*delay, handshakeMax)
	}
}

// Wait waits for the first handshake and returns what the provider said.
func (p *Plugin) Wait(ctx context.Context) (cloud.HandshakeInfo, error) {
	select {
	case <-ctx.Done():
		return cloud.HandshakeInfo{}, ctx.Err()
	case <-p.shaken:
		return p.info, p.err
	}
}

// ReadyCheck is the /readyz check "cloud-provider": the provider answers a
// handshake within two seconds.
func (p *Plugin) ReadyCheck() healthz.Check {
	return healthz.Check{Name: "cloud-provider", Check: func(r *http.Request) error {
		ctx, cancel := context.WithTimeout(r.Context(), readyTimeout)
		defer cancel()
		if _, err := p.remote.Handshake(ctx); err != nil {
			return fmt.Errorf("cloud provider at %s: %w", p.endpoint, err)
		}
		return nil
	}}
}
