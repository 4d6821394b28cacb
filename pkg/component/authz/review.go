package authz

import (
	"context"
	"encoding/json"
	"time"

	"go.uber.org/zap"
	"golang.org/x/sync/singleflight"

	authzv1 "platform.io/client/api/authorization/v1"

	"platform.io/platform/pkg/component/internal/ttlcache"
)

// AccessReviewer answers a SubjectAccessReview.
type AccessReviewer interface {
	Review(ctx context.Context, spec authzv1.SubjectAccessReviewSpec) (authzv1.SubjectAccessReviewStatus, error)
}

// reviewTimeout bounds one review of the delegating authorizer, shared by
// concurrent requests.
const reviewTimeout = 10 * time.Second

// CachedReviewer asks a reviewer and keeps its answers: allowed ones for
// the allow TTL, all others for the deny TTL; errors are not kept.
// Concurrent reviews of the same spec share one call. The API server's
// Webhook authorization mode uses it too.
type CachedReviewer struct {
	lg       *zap.Logger
	reviewer AccessReviewer
	allowTTL time.Duration
	denyTTL  time.Duration
	timeout  time.Duration
	cache    *ttlcache.Cache[string, authzv1.SubjectAccessReviewStatus]
	flights  singleflight.Group
}

var _ AccessReviewer = (*CachedReviewer)(nil)

// NewCachedReviewer returns a cache in front of r, reading the time from
// now (time.Now when nil). Each call to r is bounded by timeout, whatever
// the requests waiting for it do.
func NewCachedReviewer(lg *zap.Logger, r AccessReviewer, allowTTL, denyTTL, timeout time.Duration, now func() time.Time) *CachedReviewer {
	return &CachedReviewer{
		lg: lg, reviewer: r, allowTTL: allowTTL, denyTTL: denyTTL, timeout: timeout,
		cache: ttlcache.New[string, authzv1.SubjectAccessReviewStatus](now),
	}
}

// Review implements AccessReviewer.
func (c *CachedReviewer) Review(ctx context.Context, spec authzv1.SubjectAccessReviewSpec) (authzv1.SubjectAccessReviewStatus, error) {
	keyBytes, err := json.Marshal(spec)
	if err != nil {
		return authzv1.SubjectAccessReviewStatus{}, err
	}
	key := string(keyBytes)
	if st, ok := c.cache.Get(key); ok {
		return st, nil
	}
	v, err, _ := c.flights.Do(key, func() (any, error) { return c.review(ctx, key, spec) })
	if err != nil {
		return authzv1.SubjectAccessReviewStatus{}, err
	}
	return v.(authzv1.SubjectAccessReviewStatus), nil
}

// review asks the reviewer and caches its answer.
func (c *CachedReviewer) review(ctx context.Context, key string, spec authzv1.SubjectAccessReviewSpec) (authzv1.SubjectAccessReviewStatus, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.timeout)
	defer cancel()
	st, err := c.reviewer.Review(ctx, spec)
	if err != nil {
		c.lg.Warn("subject access review failed", zap.Error(err))
		return st, err
	}
	if st.EvaluationError != "" {
		c.lg.Debug("subject access review evaluation error", zap.String("error", st.EvaluationError))
	}
	ttl := c.denyTTL
	if st.Allowed {
		ttl = c.allowTTL
	}
	c.cache.Set(key, st, ttl)
	return st, nil
}

// reviewCache is the delegating authorizer's last step: a review of every
// request, through a CachedReviewer.
type reviewCache struct {
	*CachedReviewer
}

func newReviewCache(lg *zap.Logger, r AccessReviewer, allowTTL, denyTTL time.Duration, now func() time.Time) *reviewCache {
	return &reviewCache{NewCachedReviewer(lg, r, allowTTL, denyTTL, reviewTimeout, now)}
}

// Authorize implements Authorizer.
func (c *reviewCache) Authorize(ctx context.Context, a Attributes) (Decision, string, error) {
	st, err := c.Review(ctx, reviewSpec(a))
	if err != nil {
		return NoOpinion, "", err
	}
	switch {
	case st.Allowed:
		return Allow, st.Reason, nil
	case st.Denied:
		return Deny, st.Reason, nil
	}
	return NoOpinion, st.Reason, nil
}

// reviewSpec is the review of a request to a path or to a resource.
func reviewSpec(a Attributes) authzv1.SubjectAccessReviewSpec {
	var spec authzv1.SubjectAccessReviewSpec
	if a.Resource != nil {
		ra := *a.Resource
		spec.ResourceAttributes = &ra
	} else {
		spec.NonResourceAttributes = &authzv1.NonResourceAttributes{Path: a.Path, Verb: a.Verb}
	}
	if u := a.User; u != nil {
		spec.User, spec.UID, spec.Groups = u.Name, u.UID, u.Groups
		for k, v := range u.Extra {
			if spec.Extra == nil {
				spec.Extra = map[string]authzv1.ExtraValue{}
			}
			spec.Extra[k] = v
		}
	}
	return spec
}
