package server

import (
	"context"
	"errors"

	"platform.io/platform/pkg/apiserver/registry/authentication/tokenreview"
	"platform.io/platform/pkg/component/authn"
)

// tokenReviews answers TokenReview with the token methods of the request
// chain, in the chain's order, once buildChain has built it (the
// tokenreviews store is made before). A method that knows audiences
// (service-account tokens) checks them; the others serve the API's own
// audiences, as upstream.
type tokenReviews struct {
	s *Server
}

var _ tokenreview.Authenticator = tokenReviews{}

// AuthenticateTokenFor implements tokenreview.Authenticator.
func (r tokenReviews) AuthenticateTokenFor(ctx context.Context, token string, audiences []string) (*authn.User, []string, bool, error) {
	if r.s.authn == nil {
		return nil, nil, false, errors.New("authentication chain not built")
	}
	var errs []error
	for _, t := range r.s.authn.Tokens {
		a, ok := t.(tokenreview.Authenticator)
		if !ok {
			a = tokenreview.AudienceAgnostic(r.s.saTokens.config.APIAudiences, t)
		}
		u, valid, ok, err := a.AuthenticateTokenFor(ctx, token, audiences)
		if ok {
			return u, valid, true, nil
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return nil, nil, false, errors.Join(errs...)
}
