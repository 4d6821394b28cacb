package authn

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"go.uber.org/zap"

	authnv1 "platform.io/client/api/authentication/v1"
	"platform.io/client/rest"

	"platform.io/platform/pkg/component/authn"
)

// Versions of TokenReview the webhook may exchange. Their wire forms are
// the same but for apiVersion, so one type carries both.
const (
	WebhookV1      = "v1"
	WebhookV1beta1 = "v1beta1"
)

// Webhook asks a remote service whether a token authenticates, POSTing a
// TokenReview to the server of its kubeconfig-format file.
type Webhook struct {
	client     *rest.Client
	path       string
	apiVersion string
}

var _ authn.TokenReviewer = (*Webhook)(nil)

// NewWebhook reads the kubeconfig-format file at configFile (its current
// context names the service and the credentials to reach it) and returns
// a reviewer exchanging TokenReviews of the given version.
func NewWebhook(configFile, version string) (*Webhook, error) {
	if version != WebhookV1 && version != WebhookV1beta1 {
		return nil, fmt.Errorf("authn: token webhook version %q is neither %s nor %s", version, WebhookV1beta1, WebhookV1)
	}
	kc, err := rest.LoadKubeconfig(configFile)
	if err != nil {
		return nil, fmt.Errorf("authn: token webhook config: %w", err)
	}
	cfg, err := kc.ClientConfig("")
	if err != nil {
		return nil, fmt.Errorf("authn: token webhook config: %w", err)
	}
	u, err := url.Parse(cfg.Host)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("authn: token webhook server %q is not a URL", cfg.Host)
	}
	path := u.Path
	if path == "" {
		path = "/"
	}
	u.Path, u.RawPath = "", ""
	cfg.Host = u.String()
	// The cache in front of the webhook stands for the rate limit; a
	// failed call is not retried but answered 401 and tried again on the
	// next request.
	cfg.QPS, cfg.MaxRetries = -1, -1
	// Webhooks speak JSON, as upstream's do.
	cfg.ContentType = rest.ContentTypeJSON
	c, err := rest.NewClient(cfg)
	if err != nil {
		return nil, fmt.Errorf("authn: token webhook client: %w", err)
	}
	return &Webhook{client: c, path: path, apiVersion: authnv1.SchemeGroupVersion.Group + "/" + version}, nil
}

// Review implements authn.TokenReviewer.
func (w *Webhook) Review(ctx context.Context, token string) (authnv1.TokenReviewStatus, error) {
	in := &authnv1.TokenReview{Spec: authnv1.TokenReviewSpec{Token: token}}
	in.APIVersion, in.Kind = w.apiVersion, "TokenReview"
	var out authnv1.TokenReview
	if err := w.client.Post().AbsPath(w.path).Body(in).Do(ctx).Into(&out); err != nil {
		return authnv1.TokenReviewStatus{}, fmt.Errorf("authn: token webhook: %w", err)
	}
	return out.Status, nil
}

// NewTokenWebhook returns the webhook method of the chain: the reviewer
// behind a cache keeping each answer, accepted or rejected, for ttl (0:
// every request asks); now reads the cache's clock (nil: time.Now).
func NewTokenWebhook(lg *zap.Logger, configFile, version string, ttl time.Duration, now func() time.Time) (TokenAuthenticator, error) {
	w, err := NewWebhook(configFile, version)
	if err != nil {
		return nil, err
	}
	return authn.NewTokenCache(lg, w, ttl, ttl, now), nil
}
