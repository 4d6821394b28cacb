// Package subjectaccessreview is the registry row of
// authorization.platform.io SubjectAccessReview (v1 and v1beta1): a caller
// asks whether a named user may perform an action, and the server's own
// authorizer chain (--authorization-mode) answers. Nothing is stored.
package subjectaccessreview

import (
	"context"

	authzv1 "platform.io/client/api/authorization/v1"
	authzv1beta1 "platform.io/client/api/authorization/v1beta1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/authz"
	"platform.io/platform/pkg/apiserver/authz/accessreview"
	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// Resources are the subjectaccessreviews rows, v1 then v1beta1, answered
// by z.
func Resources(z authz.Authorizer) []*registry.Resource {
	v1 := &registry.Resource{
		Group: authzv1.GroupName, Version: "v1", Name: "subjectaccessreviews", Singular: "subjectaccessreview", Kind: "SubjectAccessReview",
		New:      func() meta.Object { return &authzv1.SubjectAccessReview{} },
		NameFunc: func(string) []string { return nil },
		Strategy: registry.Typed[authzv1.SubjectAccessReview]{ValidateFunc: func(sar *authzv1.SubjectAccessReview) field.ErrorList {
			return ValidateSpec(&sar.Spec)
		}},
		Virtual: func(ctx context.Context, obj meta.Object) (meta.Object, error) {
			sar := obj.(*authzv1.SubjectAccessReview)
			sar.Status = Review(ctx, z, &sar.Spec)
			return sar, nil
		},
	}
	v1beta1 := &registry.Resource{
		Group: authzv1beta1.GroupName, Version: "v1beta1", Name: "subjectaccessreviews", Singular: "subjectaccessreview", Kind: "SubjectAccessReview",
		New:      func() meta.Object { return &authzv1beta1.SubjectAccessReview{} },
		NameFunc: func(string) []string { return nil },
		Strategy: registry.Typed[authzv1beta1.SubjectAccessReview]{ValidateFunc: func(sar *authzv1beta1.SubjectAccessReview) field.ErrorList {
			spec := accessreview.SpecFromV1beta1(sar.Spec)
			return ValidateSpec(&spec)
		}},
		Virtual: func(ctx context.Context, obj meta.Object) (meta.Object, error) {
			sar := obj.(*authzv1beta1.SubjectAccessReview)
			spec := accessreview.SpecFromV1beta1(sar.Spec)
			sar.Status = accessreview.StatusToV1beta1(Review(ctx, z, &spec))
			return sar, nil
		},
	}
	return []*registry.Resource{v1, v1beta1}
}

// Review asks z about the user and action spec names.
func Review(ctx context.Context, z authz.Authorizer, spec *authzv1.SubjectAccessReviewSpec) authzv1.SubjectAccessReviewStatus {
	a := accessreview.Attributes(accessreview.User(spec), spec.ResourceAttributes, spec.NonResourceAttributes)
	return accessreview.Status(z.Authorize(ctx, a))
}

// ValidateSpec checks a SubjectAccessReview or LocalSubjectAccessReview
// spec: one kind of attributes, and a user or a group.
func ValidateSpec(spec *authzv1.SubjectAccessReviewSpec) field.ErrorList {
	p := field.NewPath("spec")
	errs := accessreview.Validate(p, spec.ResourceAttributes, spec.NonResourceAttributes)
	if spec.User == "" && len(spec.Groups) == 0 {
		errs = append(errs, field.Invalid(p.Child("user"), spec.User, "at least one of user or group must be specified"))
	}
	return errs
}
