// Package selfsubjectaccessreview is the registry row of
// authorization.platform.io/v1 SelfSubjectAccessReview: the requesting
// user asks whether it may perform an action (kubectl auth can-i). The
// user is the one the request authenticated as. Nothing is stored.
package selfsubjectaccessreview

import (
	"context"

	authzv1 "platform.io/client/api/authorization/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/authz"
	"platform.io/platform/pkg/apiserver/authz/accessreview"
	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/validation/field"
	"platform.io/platform/pkg/component/authn"
)

// Resource is the selfsubjectaccessreviews row, answered by z.
func Resource(z authz.Authorizer) *registry.Resource {
	return &registry.Resource{
		Group: authzv1.GroupName, Version: "v1", Name: "selfsubjectaccessreviews", Singular: "selfsubjectaccessreview", Kind: "SelfSubjectAccessReview",
		New:      func() meta.Object { return &authzv1.SelfSubjectAccessReview{} },
		NameFunc: func(string) []string { return nil },
		Strategy: registry.Typed[authzv1.SelfSubjectAccessReview]{ValidateFunc: func(r *authzv1.SelfSubjectAccessReview) field.ErrorList {
			return accessreview.Validate(field.NewPath("spec"), r.Spec.ResourceAttributes, r.Spec.NonResourceAttributes)
		}},
		Virtual: func(ctx context.Context, obj meta.Object) (meta.Object, error) {
			r := obj.(*authzv1.SelfSubjectAccessReview)
			u, ok := authn.UserFrom(ctx)
			if !ok {
				return nil, apierrors.NewBadRequest("no user present on request")
			}
			a := accessreview.Attributes(u, r.Spec.ResourceAttributes, r.Spec.NonResourceAttributes)
			r.Status = accessreview.Status(z.Authorize(ctx, a))
			return r, nil
		},
	}
}
