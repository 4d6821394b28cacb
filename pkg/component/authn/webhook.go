package authn

import (
	"context"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	authnv1 "platform.io/client/api/authentication/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/rest"

	"platform.io/platform/pkg/component/internal/reviewmetrics"
)

// Webhook is a TokenReviewer that creates TokenReviews on the API server.
type Webhook struct {
	lg      *zap.Logger
	client  *rest.Client
	metrics *reviewmetrics.Metrics
}

var _ TokenReviewer = (*Webhook)(nil)

// NewWebhook returns a reviewer sending through client, counting its
// calls by HTTP code in apiserver_delegated_authn_request_total and
// apiserver_delegated_authn_request_duration_seconds.
func NewWebhook(lg *zap.Logger, reg prometheus.Registerer, client *rest.Client) (*Webhook, error) {
	m, err := reviewmetrics.New(reg, "authn")
	if err != nil {
		return nil, err
	}
	return &Webhook{lg: lg, client: client, metrics: m}, nil
}

// Review implements TokenReviewer.
func (w *Webhook) Review(ctx context.Context, token string) (authnv1.TokenReviewStatus, error) {
	in := &authnv1.TokenReview{Spec: authnv1.TokenReviewSpec{Token: token}}
	in.APIVersion, in.Kind = authnv1.SchemeGroupVersion.String(), "TokenReview"
	start := time.Now()
	res := w.client.Post().GroupVersion(authnv1.SchemeGroupVersion).Resource("tokenreviews").Body(in).Do(ctx)
	code := resultCode(res)
	w.metrics.Observe(code, start)
	var out authnv1.TokenReview
	if err := res.Into(&out); err != nil {
		return authnv1.TokenReviewStatus{}, err
	}
	return out.Status, nil
}

// resultCode is the HTTP code of a result as a label, "<error>" when the
// server could not be reached.
func resultCode(res rest.Result) string {
	if c := res.StatusCode(); c != 0 {
		return strconv.Itoa(c)
	}
	if c := apierrors.CodeForError(res.Error()); c != 0 {
		return strconv.Itoa(int(c))
	}
	return "<error>"
}
