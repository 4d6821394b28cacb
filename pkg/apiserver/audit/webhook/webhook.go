package webhook

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"time"

	"go.uber.org/zap"

	auditv1 "platform.io/client/api/audit/v1"
	"platform.io/client/rest"

	"platform.io/platform/pkg/apiserver/audit"
)

// PluginName names the backend in flags and metrics.
const PluginName = "webhook"

// DefaultInitialBackoff is upstream's first retry delay.
const DefaultInitialBackoff = 10 * time.Second

// Upstream's retry schedule: each delay 1.5 times the last, with up to 20%
// jitter, over at most five attempts.
const (
	backoffFactor = 1.5
	backoffJitter = 0.2
	attempts      = 5
	// requestTimeout bounds one attempt.
	requestTimeout = 30 * time.Second
)

// Config is the backend's configuration.
type Config struct {
	// KubeconfigPath names the webhook: its current context's cluster
	// server is the full URL posted to, its user the client credentials.
	KubeconfigPath string
	// APIVersion of the EventList, audit.platform.io/v1 or audit.k8s.io/v1.
	APIVersion     string
	InitialBackoff time.Duration
}

// Backend posts batches to the webhook.
type Backend struct {
	lg         *zap.Logger
	client     *rest.Client
	path       string
	apiVersion string
	backoff    time.Duration
	metrics    *audit.Metrics
}

var _ audit.Backend = (*Backend)(nil)

// New reads the kubeconfig and returns the backend.
func New(lg *zap.Logger, c Config, m *audit.Metrics) (*Backend, error) {
	kc, err := rest.LoadKubeconfig(c.KubeconfigPath)
	if err != nil {
		return nil, fmt.Errorf("audit webhook: %w", err)
	}
	rc, err := kc.ClientConfig("")
	if err != nil {
		return nil, fmt.Errorf("audit webhook: %s: %w", c.KubeconfigPath, err)
	}
	u, err := url.Parse(rc.Host)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("audit webhook: %s: server %q is not a URL", c.KubeconfigPath, rc.Host)
	}
	path := u.Path
	if path == "" {
		path = "/"
	}
	u.Path, u.RawPath = "", ""
	cfg := *rc
	cfg.Host = u.String()
	cfg.ContentType, cfg.AcceptContentTypes = rest.ContentTypeJSON, rest.ContentTypeJSON
	cfg.QPS = -1        // batches are throttled by the buffered wrapper
	cfg.MaxRetries = -1 // retries follow upstream's backoff below
	cfg.Timeout = requestTimeout
	client, err := rest.NewClient(&cfg)
	if err != nil {
		return nil, fmt.Errorf("audit webhook: %s: %w", c.KubeconfigPath, err)
	}
	backoff := c.InitialBackoff
	if backoff <= 0 {
		backoff = DefaultInitialBackoff
	}
	return &Backend{lg: lg, client: client, path: path, apiVersion: c.APIVersion, backoff: backoff, metrics: m}, nil
}

// ProcessEvents posts the events as one EventList; false when every
// attempt failed or the webhook refused them.
func (b *Backend) ProcessEvents(events ...*auditv1.Event) bool {
	list := &auditv1.EventList{Items: make([]auditv1.Event, len(events))}
	list.APIVersion, list.Kind = b.apiVersion, "EventList"
	for i, ev := range events {
		list.Items[i] = *ev
	}
	delay := b.backoff
	var err error
	for attempt := 1; ; attempt++ {
		var retry bool
		if retry, err = b.post(list); err == nil {
			return true
		}
		if !retry || attempt == attempts {
			break
		}
		b.lg.Debug("audit webhook failed, retrying", zap.Duration("after", delay), zap.Error(err))
		time.Sleep(delay + time.Duration(rand.Float64()*backoffJitter*float64(delay)))
		delay = time.Duration(float64(delay) * backoffFactor)
	}
	b.metrics.PluginError(b.lg, PluginName, err, events...)
	return false
}

// post sends the list once; retry tells whether a failure may pass.
func (b *Backend) post(list *auditv1.EventList) (retry bool, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	res := b.client.Post().AbsPath(b.path).Body(list).Do(ctx)
	if err := res.Error(); err != nil {
		code := res.StatusCode()
		return code == 0 || code == http.StatusTooManyRequests || code >= 500, fmt.Errorf("audit webhook: %w", err)
	}
	return false, nil
}

// Run has nothing to do: each batch is sent by ProcessEvents.
func (b *Backend) Run(ctx context.Context) { <-ctx.Done() }

func (b *Backend) String() string { return PluginName }
