// Package subjectaccessreview is the registry row of
// authorization.platform.io/v1 SubjectAccessReview: components ask whether
// a user may perform an action. The answer follows the API server's
// authorization mode; the default, AlwaysAllow, allows everything.
package subjectaccessreview

import (
	"context"

	authzv1 "platform.io/client/api/authorization/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// Authorizer decides a review.
type Authorizer interface {
	Authorize(ctx context.Context, spec *authzv1.SubjectAccessReviewSpec) (authzv1.SubjectAccessReviewStatus, error)
}

// AlwaysAllow allows every request (--authorization-mode=AlwaysAllow).
type AlwaysAllow struct{}

// Authorize implements Authorizer.
func (AlwaysAllow) Authorize(context.Context, *authzv1.SubjectAccessReviewSpec) (authzv1.SubjectAccessReviewStatus, error) {
	return authzv1.SubjectAccessReviewStatus{Allowed: true}, nil
}

// Resource is the subjectaccessreviews row: cluster-scoped, create only.
func Resource(authz Authorizer) *registry.Resource {
	return &registry.Resource{
		Group: authzv1.GroupName, Version: "v1", Name: "subjectaccessreviews", Singular: "subjectaccessreview", Kind: "SubjectAccessReview",
		New:      func() meta.Object { return &authzv1.SubjectAccessReview{} },
		NameFunc: func(string) []string { return nil },
		Strategy: registry.Typed[authzv1.SubjectAccessReview]{ValidateFunc: validate},
		Virtual: func(ctx context.Context, obj meta.Object) (meta.Object, error) {
			sar := obj.(*authzv1.SubjectAccessReview)
			st, err := authz.Authorize(ctx, &sar.Spec)
			if err != nil {
				st = authzv1.SubjectAccessReviewStatus{EvaluationError: err.Error()}
			}
			sar.Status = st
			return sar, nil
		},
	}
}

func validate(sar *authzv1.SubjectAccessReview) field.ErrorList {
	var errs field.ErrorList
	spec := field.NewPath("spec")
	switch {
	case sar.Spec.ResourceAttributes == nil && sar.Spec.NonResourceAttributes == nil:
		errs = append(errs, field.Required(spec.Child("resourceAttributes"), "exactly one of resourceAttributes or nonResourceAttributes is required"))
	case sar.Spec.ResourceAttributes != nil && sar.Spec.NonResourceAttributes != nil:
		errs = append(errs, field.Invalid(spec.Child("nonResourceAttributes"), sar.Spec.NonResourceAttributes, "cannot be given with resourceAttributes"))
	}
	if sar.Spec.User == "" && len(sar.Spec.Groups) == 0 {
		errs = append(errs, field.Invalid(spec.Child("user"), sar.Spec.User, "at least one of user or groups must be given"))
	}
	return errs
}
