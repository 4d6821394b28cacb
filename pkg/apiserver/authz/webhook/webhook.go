package webhook

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"

	"go.uber.org/zap"

	authzv1 "platform.io/client/api/authorization/v1"
	authzv1beta1 "platform.io/client/api/authorization/v1beta1"
	"platform.io/client/rest"

	"platform.io/platform/pkg/apiserver/authz"
	"platform.io/platform/pkg/apiserver/authz/accessreview"
	"platform.io/platform/pkg/component/authn"
	cauthz "platform.io/platform/pkg/component/authz"
)

// Versions of the review the webhook can speak.
const (
	V1beta1 = "v1beta1"
	V1      = "v1"
)

// Defaults of the mode's flags, as upstream's.
const (
	DefaultVersion  = V1beta1
	DefaultAllowTTL = 5 * time.Minute
	DefaultDenyTTL  = 30 * time.Second
	// DefaultTimeout bounds one call to the webhook.
	DefaultTimeout = 30 * time.Second
)

// ErrVersion is returned for a review version other than v1beta1 and v1.
var ErrVersion = errors.New("webhook: unknown SubjectAccessReview version")

// Config is what New needs.
type Config struct {
	// KubeconfigPath names the webhook: its current context's cluster
	// server is the URL reviews are POSTed to, with its TLS and
	// credentials.
	KubeconfigPath string
	// Version is V1beta1 or V1; empty means DefaultVersion.
	Version string
	// AllowTTL and DenyTTL are how long allowed, and other, answers are
	// kept; zero keeps nothing.
	AllowTTL, DenyTTL time.Duration
	// Timeout bounds each call; zero means DefaultTimeout.
	Timeout time.Duration
	// Now reads the time for the cache; nil means time.Now.
	Now func() time.Time
}

// Authorizer asks the webhook. It lists no rules: as a RuleResolver it
// answers incomplete.
type Authorizer struct {
	reviews cauthz.AccessReviewer
}

var (
	_ authz.Authorizer   = (*Authorizer)(nil)
	_ authz.RuleResolver = (*Authorizer)(nil)
)

// New reads the kubeconfig and returns the mode's authorizer.
func New(lg *zap.Logger, c Config) (*Authorizer, error) {
	if c.Version == "" {
		c.Version = DefaultVersion
	}
	if c.Version != V1 && c.Version != V1beta1 {
		return nil, fmt.Errorf("%w: %q (want %s or %s)", ErrVersion, c.Version, V1beta1, V1)
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	kc, err := rest.LoadKubeconfig(c.KubeconfigPath)
	if err != nil {
		return nil, fmt.Errorf("webhook: %w", err)
	}
	rc, err := kc.ClientConfig("")
	if err != nil {
		return nil, fmt.Errorf("webhook: %s: %w", c.KubeconfigPath, err)
	}
	r, err := newReviewer(rc, c.Version, c.Timeout)
	if err != nil {
		return nil, fmt.Errorf("webhook: %s: %w", c.KubeconfigPath, err)
	}
	return &Authorizer{reviews: cauthz.NewCachedReviewer(lg, r, c.AllowTTL, c.DenyTTL, c.Timeout, c.Now)}, nil
}

// Authorize implements authz.Authorizer.
func (a *Authorizer) Authorize(ctx context.Context, attrs authz.Attributes) (authz.Decision, string, error) {
	st, err := a.reviews.Review(ctx, accessreview.Spec(attrs))
	if err != nil {
		return authz.NoOpinion, "", err
	}
	return accessreview.Decision(st), st.Reason, nil
}

// ErrNoRules is RulesFor's error: a webhook cannot list rules.
var ErrNoRules = errors.New("webhook authorizer does not support user rule resolution")

// RulesFor implements authz.RuleResolver: nothing, incomplete.
func (a *Authorizer) RulesFor(context.Context, *authn.User, string) ([]authz.ResourceRule, []authz.NonResourceRule, bool, error) {
	return nil, nil, true, ErrNoRules
}

// reviewer posts reviews in one version to the webhook's URL.
type reviewer struct {
	client  *rest.Client
	path    string
	version string
}

// newReviewer builds the client. The kubeconfig's server is the full URL
// of the webhook, so its path is split off and posted to as it is.
func newReviewer(rc *rest.Config, version string, timeout time.Duration) (*reviewer, error) {
	u, err := url.Parse(rc.Host)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("server %q is not a URL", rc.Host)
	}
	path := u.Path
	if path == "" {
		path = "/"
	}
	u.Path, u.RawPath = "", ""
	c := *rc
	c.Host = u.String()
	c.ContentType, c.AcceptContentTypes = rest.ContentTypeJSON, rest.ContentTypeJSON
	c.QPS = -1 // every request waits on the webhook; a client-side limit would only add delay
	c.MaxRetries = -1
	c.Timeout = timeout
	client, err := rest.NewClient(&c)
	if err != nil {
		return nil, err
	}
	return &reviewer{client: client, path: path, version: version}, nil
}

// Review implements cauthz.AccessReviewer.
func (r *reviewer) Review(ctx context.Context, spec authzv1.SubjectAccessReviewSpec) (authzv1.SubjectAccessReviewStatus, error) {
	if r.version == V1 {
		in := &authzv1.SubjectAccessReview{Spec: spec}
		in.APIVersion, in.Kind = authzv1.SchemeGroupVersion.String(), "SubjectAccessReview"
		var out authzv1.SubjectAccessReview
		if err := r.client.Post().AbsPath(r.path).Body(in).Do(ctx).Into(&out); err != nil {
			return authzv1.SubjectAccessReviewStatus{}, fmt.Errorf("webhook: %w", err)
		}
		return out.Status, nil
	}
	in := &authzv1beta1.SubjectAccessReview{Spec: accessreview.SpecToV1beta1(spec)}
	in.APIVersion, in.Kind = authzv1beta1.SchemeGroupVersion.String(), "SubjectAccessReview"
	var out authzv1beta1.SubjectAccessReview
	if err := r.client.Post().AbsPath(r.path).Body(in).Do(ctx).Into(&out); err != nil {
		return authzv1.SubjectAccessReviewStatus{}, fmt.Errorf("webhook: %w", err)
	}
	return accessreview.StatusFromV1beta1(out.Status), nil
}
