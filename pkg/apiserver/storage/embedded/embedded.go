// Package embedded runs a single-member etcd inside the API server process,
// for development and tests, when no --etcd-servers are given. It is not for
// production: it has no peers, so the data lives and dies with one process.
package embedded

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
	"go.uber.org/zap"
)

// Etcd is a running embedded etcd member.
type Etcd struct {
	etcd *embed.Etcd
	// ClientURL is the address clients connect to.
	ClientURL string
}

// Options configure the embedded member.
type Options struct {
	// DataDir holds the member's data; it is created if missing.
	DataDir string
	// ClientURL and PeerURL are where it listens; "http://127.0.0.1:0" picks a free port.
	ClientURL string
	PeerURL   string
	// QuotaBackendBytes caps the database size; 0 keeps etcd's default.
	QuotaBackendBytes int64
}

// Start starts the member and waits until it serves.
func Start(ctx context.Context, lg *zap.Logger, o Options) (*Etcd, error) {
	cfg := embed.NewConfig()
	cfg.Dir = o.DataDir
	cfg.Logger = "zap"
	cfg.ZapLoggerBuilder = embed.NewZapLoggerBuilder(lg.Named("etcd").WithOptions(zap.IncreaseLevel(zap.WarnLevel)))
	cfg.QuotaBackendBytes = o.QuotaBackendBytes
	cfg.AutoCompactionMode = embed.CompactorModePeriodic
	cfg.AutoCompactionRetention = "0" // off: the API server compacts on its own interval
	cu, err := url.Parse(o.ClientURL)
	if err != nil {
		return nil, fmt.Errorf("embedded etcd: client url: %w", err)
	}
	pu, err := url.Parse(o.PeerURL)
	if err != nil {
		return nil, fmt.Errorf("embedded etcd: peer url: %w", err)
	}
	cfg.ListenClientUrls, cfg.AdvertiseClientUrls = []url.URL{*cu}, []url.URL{*cu}
	cfg.ListenPeerUrls, cfg.AdvertisePeerUrls = []url.URL{*pu}, []url.URL{*pu}
	cfg.InitialCluster = cfg.Name + "=" + pu.String()
	e, err := embed.StartEtcd(cfg)
	if err != nil {
		return nil, fmt.Errorf("embedded etcd: start: %w", err)
	}
	select {
	case <-e.Server.ReadyNotify():
	case err := <-e.Err():
		e.Close()
		return nil, fmt.Errorf("embedded etcd: %w", err)
	case <-time.After(60 * time.Second):
		e.Close()
		return nil, fmt.Errorf("embedded etcd: not ready after 60s")
	case <-ctx.Done():
		e.Close()
		return nil, ctx.Err()
	}
	return &Etcd{etcd: e, ClientURL: "http://" + e.Clients[0].Addr().String()}, nil
}

// Close stops the member.
func (e *Etcd) Close() { e.etcd.Close() }
