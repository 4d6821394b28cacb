// Package app wires platform-metrics-server: the shared daemon options
// (secure serving, delegated authentication with front-proxy support,
// delegated authorization), the scrape options, node and pod informers,
// the scraper and the resource metrics API on the secure port.
package app

import (
	"context"
	"errors"
	"net/http"

	"platform.io/client/client"

	"platform.io/platform/pkg/component/daemon"
	"platform.io/platform/pkg/component/healthz"
	"platform.io/platform/pkg/component/options"
	"platform.io/platform/pkg/component/run"
	"platform.io/platform/pkg/metricsserver"
)

// Spec returns the daemon's description for the shared runner.
func Spec() daemon.Spec {
	return daemon.Spec{
		Name:  "platform-metrics-server",
		Short: "Serve the resource metrics API",
		Long: `platform-metrics-server scrapes every node's resource metrics endpoint
(/metrics/resource, as the kubelet serves it) every --metric-resolution, and
serves the CPU and memory usage of nodes and pods as the resource metrics API,
metrics.platform.io/v1beta1 and metrics.k8s.io/v1beta1, which the API server
aggregates (APIServices v1beta1.metrics.platform.io and v1beta1.metrics.k8s.io)
and kubectl top and the horizontal pod autoscaler read.`,
		Defaults:   options.MetricsServerDefaults(),
		NewOptions: func() daemon.Options { return NewOptions() },
		New:        New,
	}
}

// New declares the node and pod informers, installs the API on the
// secure port and returns the scraper.
func New(_ context.Context, d *daemon.Deps) (run.Runnable, error) {
	o, ok := d.Own.(*Options)
	if !ok {
		return nil, errors.New("metrics-server: options are not the metrics server's")
	}
	cfg, err := o.ScrapeConfig()
	if err != nil {
		return nil, err
	}
	nodes, err := client.Inform(d.Informers, d.Clients.Nodes)
	if err != nil {
		return nil, err
	}
	pods, err := client.Inform(d.Informers, d.Clients.Pods)
	if err != nil {
		return nil, err
	}
	store := metricsserver.NewStore()
	scraper, err := metricsserver.NewScraper(d.Logger.Named("scraper"), d.Registry, cfg, nodes.Lister(), store)
	if err != nil {
		return nil, err
	}
	if d.Server != nil {
		api := metricsserver.NewAPI(d.Logger.Named("api"), store, nodes.Lister(), pods.Lister())
		d.Server.HandleAPI("/apis", api, metricsserver.ResourceAttributes)
		d.Server.HandleAPI("/apis/", api, metricsserver.ResourceAttributes)
		if err := d.Server.AddReadyChecks(healthz.Check{Name: "metric-storage-ready", Check: func(*http.Request) error {
			return scraper.Ready()
		}}); err != nil {
			return nil, err
		}
	}
	return scraper, nil
}
