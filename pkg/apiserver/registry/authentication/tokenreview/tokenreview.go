// Package tokenreview is the registry row of authentication.platform.io/v1
// TokenReview: components post a bearer token and learn whom it belongs to.
// The answer follows the API server's authentication configuration; with
// no token authenticators configured (the defaults) no token authenticates.
package tokenreview

import (
	"context"

	authnv1 "platform.io/client/api/authentication/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// Authenticator checks a bearer token; ok is false when it is not valid.
type Authenticator interface {
	AuthenticateToken(ctx context.Context, token string, audiences []string) (user authnv1.UserInfo, ok bool, err error)
}

// NoTokens authenticates no token: the server has no token authenticators.
type NoTokens struct{}

// AuthenticateToken implements Authenticator.
func (NoTokens) AuthenticateToken(context.Context, string, []string) (authnv1.UserInfo, bool, error) {
	return authnv1.UserInfo{}, false, nil
}

// Resource is the tokenreviews row: cluster-scoped, create only.
func Resource(authn Authenticator) *registry.Resource {
	return &registry.Resource{
		Group: authnv1.GroupName, Version: "v1", Name: "tokenreviews", Singular: "tokenreview", Kind: "TokenReview",
		New:      func() meta.Object { return &authnv1.TokenReview{} },
		NameFunc: func(string) []string { return nil },
		Strategy: registry.Typed[authnv1.TokenReview]{ValidateFunc: validate},
		Virtual: func(ctx context.Context, obj meta.Object) (meta.Object, error) {
			tr := obj.(*authnv1.TokenReview)
			user, ok, err := authn.AuthenticateToken(ctx, tr.Spec.Token, tr.Spec.Audiences)
			tr.Status = authnv1.TokenReviewStatus{Authenticated: ok && err == nil}
			switch {
			case err != nil:
				tr.Status.Error = err.Error()
			case ok:
				tr.Status.User, tr.Status.Audiences = user, tr.Spec.Audiences
			}
			tr.Spec.Token = "" // never echo the secret
			return tr, nil
		},
	}
}

func validate(tr *authnv1.TokenReview) field.ErrorList {
	if tr.Spec.Token == "" {
		return field.ErrorList{field.Required(field.NewPath("spec", "token"), "")}
	}
	return nil
}
