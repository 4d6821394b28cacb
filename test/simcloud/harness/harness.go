// Package harness runs, inside a test, a real API server, the simulated
// cloud served over the plugin protocol on a Unix socket, and the cloud
// controller manager's loops built by the daemon's own New and reaching
// the cloud through that socket. The plugin can be stopped and started
// again, as a crashed and restarted provider.
package harness

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	"platform.io/client/client"
	cloud "platform.io/client/cloudprovider"
	"platform.io/client/informer"

	"platform.io/platform/cmd/cloud-controller-manager/app"
	"platform.io/platform/pkg/cloudprovider/cloudnode"
	"platform.io/platform/pkg/cloudprovider/nodelifecycle"
	"platform.io/platform/pkg/cloudprovider/route"
	"platform.io/platform/test/integration/framework"
	"platform.io/platform/test/simcloud"
)

// ClusterName is the daemon's --cluster-name.
const ClusterName = "it"

// ClusterCIDR is the route loop's --cluster-cidr.
const ClusterCIDR = "10.244.0.0/16"

// Harness is a running API server, simulated cloud and cloud loops.
type Harness struct {
	// Registry holds the daemon's metrics, the plugin's among them.
	Registry *prometheus.Registry
	Clients  *client.Set
	Cloud    *simcloud.Cloud
	// Endpoint is the plugin's socket.
	Endpoint string
	// Served is what StartProvider serves: Cloud, unless a test wraps it
	// (between StopProvider and StartProvider) to change an answer.
	Served cloud.Interface

	tb   testing.TB
	stop func()
}

// Start runs everything until the test ends. The cloud has instances
// n-0, n-1, n-2 in zones z1, z2; the loops run with short periods, routes
// on; configure, if not nil, adjusts the daemon's options last.
func Start(tb testing.TB, configure func(*app.Options)) *Harness {
	tb.Helper()
	s := framework.Start(tb)
	d := s.Deps(tb, "cloud-controller-manager")
	ctx, cancel := context.WithCancel(context.Background())
	tb.Cleanup(cancel)

	epFactory := informer.NewFactory(informer.Options{})
	eps, err := client.Inform(epFactory, d.Clients.Endpoints)
	if err != nil {
		tb.Fatal(err)
	}
	epFactory.Start(ctx)
	tb.Cleanup(epFactory.Shutdown)
	cfg := simcloud.NewConfig()
	cfg.Instances, cfg.NamePrefix, cfg.Zones = 3, "n-", []string{"z1", "z2"}
	cfg.LoadBalancerCIDR = fmt.Sprintf("127.%d.%d.0/24", 100+rand.IntN(150), rand.IntN(256))
	c, err := simcloud.New(zap.NewNop(), *cfg, simcloud.EndpointsFrom(eps.Lister()))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(c.Close)
	h := &Harness{Registry: d.Registry.(*prometheus.Registry), Clients: d.Clients, Cloud: c,
		Endpoint: "unix://" + filepath.Join(tb.TempDir(), "simcloud.sock"), Served: c, tb: tb}
	h.StartProvider()
	tb.Cleanup(func() { h.StopProvider() })

	table := app.Descriptors()
	o := app.NewOptions(table)
	o.ClusterName = ClusterName
	o.Cloud.Provider, o.Cloud.Endpoint, o.Cloud.CallTimeout = "simcloud", h.Endpoint, 2*time.Second
	for _, l := range o.Loops() {
		switch l := l.(type) {
		case *nodelifecycle.Options:
			l.MonitorPeriod = 200 * time.Millisecond
		case *route.Options:
			l.AllocateNodeCIDRs, l.ClusterCIDR, l.ReconciliationPeriod = true, ClusterCIDR, time.Second
		case *cloudnode.Options:
			l.StatusUpdateFrequency = time.Second
		}
	}
	if configure != nil {
		configure(o)
	}
	if errs := o.Validate(); len(errs) > 0 {
		tb.Fatal(errs)
	}
	d.Own = o
	r, err := app.New(ctx, d, table)
	if err != nil {
		tb.Fatal(err)
	}
	d.Informers.Start(ctx)
	if !d.Informers.WaitForCacheSync(ctx) {
		tb.Fatal("informers did not sync")
	}
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	tb.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			tb.Errorf("loops: %v", err)
		}
	})
	return h
}

// StartProvider serves Served on the socket.
func (h *Harness) StartProvider() {
	lis, err := cloud.Listen(h.Endpoint)
	if err != nil {
		h.tb.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = cloud.Serve(ctx, lis, h.Served, "harness") }()
	h.stop = func() { cancel(); <-done }
}

// StopProvider stops serving, closing the socket; the cloud keeps its
// state. It does nothing when the provider is not running.
func (h *Harness) StopProvider() {
	if h.stop != nil {
		h.stop()
		h.stop = nil
	}
}

// CallErrors is the count of failed calls of method to the plugin.
func (h *Harness) CallErrors(method string) float64 {
	mfs, err := h.Registry.Gather()
	if err != nil {
		h.tb.Fatal(err)
	}
	var sum float64
	for _, mf := range mfs {
		if mf.GetName() != "cloudprovider_plugin_call_errors_total" {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "method" && l.GetValue() == method {
					sum += m.GetCounter().GetValue()
				}
			}
		}
	}
	return sum
}
