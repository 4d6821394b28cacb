package metricsserver

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"
	"golang.org/x/sync/errgroup"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/labels"
	"platform.io/client/informer"
)

// ResourceMetricsPath is the kubelet's resource metrics endpoint.
const ResourceMetricsPath = "/metrics/resource"

// maxConcurrentScrapes bounds the scrapes in flight.
const maxConcurrentScrapes = 64

// maxBody bounds one scrape's body.
const maxBody = 64 << 20

// ErrNoAddress reports a node with none of the preferred address types.
var ErrNoAddress = errors.New("metricsserver: node has no address of a preferred type")

// ScrapeConfig is how nodes are found and scraped.
type ScrapeConfig struct {
	// Resolution is the interval between scrapes of all nodes.
	Resolution time.Duration
	// Timeout bounds one node's scrape.
	Timeout time.Duration
	// AddressTypes are the node address types to use, in order of
	// preference.
	AddressTypes []corev1.NodeAddressType
	// Port is the kubelet port, unless UseNodeStatusPort takes each node's
	// status.daemonEndpoints.kubeletEndpoint.port.
	Port              int
	UseNodeStatusPort bool
	// TLS is the client configuration for the kubelets.
	TLS *tls.Config
}

// Scraper scrapes every node on a timer into a Store.
type Scraper struct {
	lg      *zap.Logger
	cfg     ScrapeConfig
	nodes   informer.Lister[*corev1.Node]
	store   *Store
	client  *http.Client
	metrics *scrapeMetrics
	// cycles counts the completed scrapes of all nodes.
	cycles atomic.Int64
}

// ErrNotScraped is Ready's answer before the first scrape of all nodes.
var ErrNotScraped = errors.New("metricsserver: nodes not scraped yet")

// Ready reports whether every node has been scraped at least once.
func (s *Scraper) Ready() error {
	if s.cycles.Load() == 0 {
		return ErrNotScraped
	}
	return nil
}

// NewScraper returns a scraper of the nodes in the lister, reporting on reg.
func NewScraper(lg *zap.Logger, reg prometheus.Registerer, cfg ScrapeConfig, nodes informer.Lister[*corev1.Node], store *Store) (*Scraper, error) {
	m, err := newScrapeMetrics(reg)
	if err != nil {
		return nil, err
	}
	tr := &http.Transport{
		TLSClientConfig:     cfg.TLS,
		MaxIdleConnsPerHost: 1,
		IdleConnTimeout:     2 * cfg.Resolution,
		DialContext:         (&net.Dialer{Timeout: cfg.Timeout}).DialContext,
	}
	return &Scraper{lg: lg, cfg: cfg, nodes: nodes, store: store, client: &http.Client{Transport: tr}, metrics: m}, nil
}

// Run scrapes all nodes at once, then every Resolution, until ctx ends.
func (s *Scraper) Run(ctx context.Context) error {
	t := time.NewTicker(s.cfg.Resolution)
	defer t.Stop()
	for {
		s.ScrapeAll(ctx)
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// ScrapeAll scrapes every node once, in parallel, and forgets the nodes
// that are gone.
func (s *Scraper) ScrapeAll(ctx context.Context) {
	start := time.Now()
	nodes, err := s.nodes.List(labels.Everything())
	if err != nil {
		s.lg.Warn("Cannot list nodes", zap.Error(err))
		return
	}
	keep := make(map[string]bool, len(nodes))
	var g errgroup.Group
	g.SetLimit(maxConcurrentScrapes)
	for _, n := range nodes {
		keep[n.Name] = true
		g.Go(func() error {
			s.scrapeNode(ctx, n)
			return nil
		})
	}
	_ = g.Wait()
	s.store.Retain(keep)
	s.cycles.Add(1)
	s.metrics.cycle.Observe(time.Since(start).Seconds())
	nodesKept, containers := s.store.counts()
	s.metrics.points.WithLabelValues("node").Set(float64(nodesKept))
	s.metrics.points.WithLabelValues("container").Set(float64(containers))
}

// scrapeNode scrapes one node into the store, or drops its usage.
func (s *Scraper) scrapeNode(ctx context.Context, n *corev1.Node) {
	start := time.Now()
	sample, err := s.fetch(ctx, n)
	s.metrics.duration.WithLabelValues(n.Name).Observe(time.Since(start).Seconds())
	if err != nil {
		s.metrics.requests.WithLabelValues(n.Name, "false").Inc()
		s.store.Fail(n.Name)
		if ctx.Err() == nil {
			s.lg.Info("Scrape failed", zap.String("node", n.Name), zap.Error(err))
		}
		return
	}
	s.metrics.requests.WithLabelValues(n.Name, "true").Inc()
	s.store.Add(n.Name, sample)
}

// fetch reads and decodes the node's resource metrics.
func (s *Scraper) fetch(ctx context.Context, n *corev1.Node) (*nodeSample, error) {
	url, err := s.URL(n)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, fmt.Errorf("metricsserver: scrape %s: %w", n.Name, err)
	}
	req.Header.Set("Accept", "text/plain;version=0.0.4")
	resp, err := s.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("metricsserver: scrape %s: %w", n.Name, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("metricsserver: scrape %s: %s answered %s", n.Name, url, resp.Status)
	}
	sample, err := decode(io.LimitReader(resp.Body, maxBody), time.Now())
	if err != nil {
		return nil, fmt.Errorf("metricsserver: scrape %s: %w", n.Name, err)
	}
	return sample, nil
}

// URL is where node n's resource metrics are: the first address of a
// preferred type, and the configured or the node's own kubelet port.
func (s *Scraper) URL(n *corev1.Node) (string, error) {
	host := ""
	for _, typ := range s.cfg.AddressTypes {
		for _, a := range n.Status.Addresses {
			if a.Type == typ && a.Address != "" {
				host = a.Address
				break
			}
		}
		if host != "" {
			break
		}
	}
	if host == "" {
		return "", fmt.Errorf("%w (node %s)", ErrNoAddress, n.Name)
	}
	port := s.cfg.Port
	if s.cfg.UseNodeStatusPort {
		port = int(n.Status.DaemonEndpoints.KubeletEndpoint.Port)
	}
	return "https://" + net.JoinHostPort(host, strconv.Itoa(port)) + ResourceMetricsPath, nil
}

// scrapeMetrics are the scraper's own metrics.
type scrapeMetrics struct {
	duration *prometheus.HistogramVec
	requests *prometheus.CounterVec
	cycle    prometheus.Histogram
	points   *prometheus.GaugeVec
}

func newScrapeMetrics(reg prometheus.Registerer) (*scrapeMetrics, error) {
	m := &scrapeMetrics{
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "metrics_server_kubelet_request_duration_seconds",
			Help:    "Duration of scrapes of a node's resource metrics, by node.",
			Buckets: prometheus.ExponentialBuckets(0.001, 2, 14),
		}, []string{"node"}),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "metrics_server_kubelet_request_total",
			Help: "Scrapes of a node's resource metrics, by node and whether they succeeded.",
		}, []string{"node", "success"}),
		cycle: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "metrics_server_manager_tick_duration_seconds",
			Help:    "Duration of one scrape of all nodes.",
			Buckets: prometheus.ExponentialBuckets(0.001, 2, 16),
		}),
		points: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "metrics_server_storage_points",
			Help: "Nodes and containers with usage in the store.",
		}, []string{"type"}),
	}
	for _, c := range []prometheus.Collector{m.duration, m.requests, m.cycle, m.points} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("metricsserver: register metrics: %w", err)
		}
	}
	return m, nil
}
