// Package selfsubjectreview is the registry row of
// authentication.platform.io SelfSubjectReview (v1 and v1beta1): the
// requesting user learns whom the server authenticated it as (kubectl auth
// whoami). Nothing is stored.
package selfsubjectreview

import (
	"context"

	authnv1 "platform.io/client/api/authentication/v1"
	authnv1beta1 "platform.io/client/api/authentication/v1beta1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/registry/authentication/tokenreview"
	"platform.io/platform/pkg/component/authn"
)

// Resources are the selfsubjectreviews rows, v1 then v1beta1.
func Resources() []*registry.Resource {
	v1 := &registry.Resource{
		Group: authnv1.GroupName, Version: "v1", Name: "selfsubjectreviews", Singular: "selfsubjectreview", Kind: "SelfSubjectReview",
		New:      func() meta.Object { return &authnv1.SelfSubjectReview{} },
		NameFunc: func(string) []string { return nil },
		Strategy: registry.Typed[authnv1.SelfSubjectReview]{},
		Virtual: func(ctx context.Context, obj meta.Object) (meta.Object, error) {
			u, err := requester(ctx)
			if err != nil {
				return nil, err
			}
			r := obj.(*authnv1.SelfSubjectReview)
			r.Status.UserInfo = tokenreview.UserInfo(u)
			return r, nil
		},
	}
	v1beta1 := &registry.Resource{
		Group: authnv1beta1.GroupName, Version: "v1beta1", Name: "selfsubjectreviews", Singular: "selfsubjectreview", Kind: "SelfSubjectReview",
		New:      func() meta.Object { return &authnv1beta1.SelfSubjectReview{} },
		NameFunc: func(string) []string { return nil },
		Strategy: registry.Typed[authnv1beta1.SelfSubjectReview]{},
		Virtual: func(ctx context.Context, obj meta.Object) (meta.Object, error) {
			u, err := requester(ctx)
			if err != nil {
				return nil, err
			}
			r := obj.(*authnv1beta1.SelfSubjectReview)
			r.Status.UserInfo = tokenreview.UserInfoV1beta1(tokenreview.UserInfo(u))
			return r, nil
		},
	}
	return []*registry.Resource{v1, v1beta1}
}

func requester(ctx context.Context) (*authn.User, error) {
	u, ok := authn.UserFrom(ctx)
	if !ok {
		return nil, apierrors.NewBadRequest("no user present on request")
	}
	return u, nil
}
