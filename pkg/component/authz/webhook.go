package authz

import (
	"context"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	authzv1 "platform.io/client/api/authorization/v1"
	"platform.io/client/rest"

	"platform.io/platform/pkg/component/internal/reviewmetrics"
)

// Webhook is an AccessReviewer that creates SubjectAccessReviews on the
// API server.
type Webhook struct {
	lg      *zap.Logger
	client  *rest.Client
	metrics *reviewmetrics.Metrics
}

var _ AccessReviewer = (*Webhook)(nil)

// NewWebhook returns a reviewer sending through client, counting its
// calls by HTTP code in apiserver_delegated_authz_request_total and
// apiserver_delegated_authz_request_duration_seconds.
func NewWebhook(lg *zap.Logger, reg prometheus.Registerer, client *rest.Client) (*Webhook, error) {
	m, err := reviewmetrics.New(reg, "authz")
	if err != nil {
		return nil, err
	}
	return &Webhook{lg: lg, client: client, metrics: m}, nil
}

// Review implements AccessReviewer.
func (w *Webhook) Review(ctx context.Context, spec authzv1.SubjectAccessReviewSpec) (authzv1.SubjectAccessReviewStatus, error) {
	in := &authzv1.SubjectAccessReview{Spec: spec}
	in.APIVersion, in.Kind = authzv1.SchemeGroupVersion.String(), "SubjectAccessReview"
	start := time.Now()
	res := w.client.Post().GroupVersion(authzv1.SchemeGroupVersion).Resource("subjectaccessreviews").Body(in).Do(ctx)
	code := "<error>"
	if c := res.StatusCode(); c != 0 {
		code = strconv.Itoa(c)
	}
	w.metrics.Observe(code, start)
	var out authzv1.SubjectAccessReview
	if err := res.Into(&out); err != nil {
		return authzv1.SubjectAccessReviewStatus{}, err
	}
	return out.Status, nil
}
