// Package tokenreview is the registry row of authentication.platform.io
// TokenReview (v1 and v1beta1): a caller posts a bearer token and the
// server's own token authenticators say whom it belongs to. The token is
// never echoed back, and nothing is stored.
package tokenreview

import (
	"context"
	"errors"
	"slices"

	authnv1 "platform.io/client/api/authentication/v1"
	authnv1beta1 "platform.io/client/api/authentication/v1beta1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	apiauthn "platform.io/platform/pkg/apiserver/authn"
	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/component/authn"
)

// Authenticator checks a token for the given audiences and returns the
// audiences it is valid for. ok=false with a nil error means no
// authenticator recognised the token; an error means one did and refused
// it.
type Authenticator interface {
	AuthenticateTokenFor(ctx context.Context, token string, audiences []string) (u *authn.User, valid []string, ok bool, err error)
}

// Config is what the reviews are answered with.
type Config struct {
	// Authenticator is the server's token chain. Nil means the server has
	// no token authenticators: no token authenticates.
	Authenticator Authenticator
	// APIAudiences (--api-audiences) are checked when a review names none.
	APIAudiences []string
}

// errAudiences is the 500 upstream answers when an authenticator accepts a
// token for none of the audiences asked for: a bug in the authenticator,
// which must not pass as success.
var errAudiences = apierrors.NewInternalError(errors.New("error validating audiences"))

// Resources are the tokenreviews rows, v1 then v1beta1.
func Resources(c Config) []*registry.Resource {
	v1 := &registry.Resource{
		Group: authnv1.GroupName, Version: "v1", Name: "tokenreviews", Singular: "tokenreview", Kind: "TokenReview",
		New:      func() meta.Object { return &authnv1.TokenReview{} },
		NameFunc: func(string) []string { return nil },
		Strategy: registry.Typed[authnv1.TokenReview]{},
		Virtual: func(ctx context.Context, obj meta.Object) (meta.Object, error) {
			tr := obj.(*authnv1.TokenReview)
			st, err := c.review(ctx, tr.Spec)
			if err != nil {
				return nil, err
			}
			tr.Spec.Token, tr.Status = "", st
			return tr, nil
		},
	}
	v1beta1 := &registry.Resource{
		Group: authnv1beta1.GroupName, Version: "v1beta1", Name: "tokenreviews", Singular: "tokenreview", Kind: "TokenReview",
		New:      func() meta.Object { return &authnv1beta1.TokenReview{} },
		NameFunc: func(string) []string { return nil },
		Strategy: registry.Typed[authnv1beta1.TokenReview]{},
		Virtual: func(ctx context.Context, obj meta.Object) (meta.Object, error) {
			tr := obj.(*authnv1beta1.TokenReview)
			st, err := c.review(ctx, authnv1.TokenReviewSpec(tr.Spec))
			if err != nil {
				return nil, err
			}
			tr.Spec.Token = ""
			tr.Status = authnv1beta1.TokenReviewStatus{
				Authenticated: st.Authenticated, Audiences: st.Audiences, Error: st.Error,
				User: UserInfoV1beta1(st.User),
			}
			return tr, nil
		},
	}
	return []*registry.Resource{v1, v1beta1}
}

// review answers one review as upstream does: the audiences asked for,
// else the API's; the error of a refused token in status.error.
func (c Config) review(ctx context.Context, spec authnv1.TokenReviewSpec) (authnv1.TokenReviewStatus, error) {
	if spec.Token == "" {
		return authnv1.TokenReviewStatus{}, apierrors.NewBadRequest("token is required for TokenReview")
	}
	if c.Authenticator == nil {
		return authnv1.TokenReviewStatus{}, nil
	}
	auds := spec.Audiences
	if len(auds) == 0 {
		auds = c.APIAudiences
	}
	u, valid, ok, err := c.Authenticator.AuthenticateTokenFor(ctx, spec.Token, auds)
	var st authnv1.TokenReviewStatus
	if err != nil {
		st.Error = err.Error()
		return st, nil
	}
	if !ok || u == nil {
		return st, nil
	}
	if len(auds) > 0 && !slices.ContainsFunc(valid, func(a string) bool { return slices.Contains(auds, a) }) {
		return st, errAudiences
	}
	// As on requests, an authenticated user is in system:authenticated.
	st.Authenticated, st.User, st.Audiences = true, UserInfo(u), valid
	if !slices.Contains(st.User.Groups, authn.AllAuthenticated) {
		st.User.Groups = append(slices.Clip(st.User.Groups), authn.AllAuthenticated)
	}
	return st, nil
}

// UserInfo is the wire form of u.
func UserInfo(u *authn.User) authnv1.UserInfo {
	info := authnv1.UserInfo{Username: u.Name, UID: u.UID, Groups: u.Groups}
	for k, v := range u.Extra {
		if info.Extra == nil {
			info.Extra = map[string]authnv1.ExtraValue{}
		}
		info.Extra[k] = v
	}
	return info
}

// UserInfoV1beta1 converts a v1 user to v1beta1.
func UserInfoV1beta1(u authnv1.UserInfo) authnv1beta1.UserInfo {
	out := authnv1beta1.UserInfo{Username: u.Username, UID: u.UID, Groups: u.Groups}
	for k, v := range u.Extra {
		if out.Extra == nil {
			out.Extra = map[string]authnv1beta1.ExtraValue{}
		}
		out.Extra[k] = authnv1beta1.ExtraValue(v)
	}
	return out
}

// AudienceAgnostic adapts a token authenticator that knows nothing of
// audiences (a static token file, bootstrap tokens, a webhook), as
// upstream does: its tokens are valid for the API's audiences only, so a
// review asking for other audiences is not authenticated by it.
func AudienceAgnostic(apiAudiences []string, a apiauthn.TokenAuthenticator) Authenticator {
	return agnostic{implicit: apiAudiences, a: a}
}

type agnostic struct {
	implicit []string
	a        apiauthn.TokenAuthenticator
}

func (g agnostic) AuthenticateTokenFor(ctx context.Context, token string, audiences []string) (*authn.User, []string, bool, error) {
	valid := g.implicit
	if len(audiences) > 0 {
		valid = nil
		for _, a := range audiences {
			if slices.Contains(g.implicit, a) {
				valid = append(valid, a)
			}
		}
		if len(valid) == 0 {
			return nil, nil, false, nil
		}
	}
	u, ok, err := g.a.AuthenticateToken(ctx, token)
	if err != nil || !ok {
		return nil, nil, false, err
	}
	return u, valid, true, nil
}
