// Package localsubjectaccessreview is the registry row of
// authorization.platform.io/v1 LocalSubjectAccessReview: a
// SubjectAccessReview posted to a namespace, about resources in that
// namespace only, so a namespace's administrator can be allowed to ask it.
// Nothing is stored.
package localsubjectaccessreview

import (
	"context"
	"fmt"

	authzv1 "platform.io/client/api/authorization/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/authz"
	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/registry/authorization/subjectaccessreview"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// Resource is the localsubjectaccessreviews row, answered by z.
func Resource(z authz.Authorizer) *registry.Resource {
	return &registry.Resource{
		Group: authzv1.GroupName, Version: "v1", Name: "localsubjectaccessreviews", Singular: "localsubjectaccessreview", Kind: "LocalSubjectAccessReview",
		Namespaced: true,
		New:        func() meta.Object { return &authzv1.LocalSubjectAccessReview{} },
		NameFunc:   func(string) []string { return nil },
		Strategy:   registry.Typed[authzv1.LocalSubjectAccessReview]{ValidateFunc: validate},
		Virtual: func(ctx context.Context, obj meta.Object) (meta.Object, error) {
			sar := obj.(*authzv1.LocalSubjectAccessReview)
			if ns := sar.Spec.ResourceAttributes.Namespace; ns != sar.Namespace {
				return nil, apierrors.NewBadRequest(fmt.Sprintf("spec.resourceAttributes.namespace must match namespace: %s", sar.Namespace))
			}
			sar.Status = subjectaccessreview.Review(ctx, z, &sar.Spec)
			return sar, nil
		},
	}
}

func validate(sar *authzv1.LocalSubjectAccessReview) field.ErrorList {
	errs := subjectaccessreview.ValidateSpec(&sar.Spec)
	if sar.Spec.NonResourceAttributes != nil {
		errs = append(errs, field.Invalid(field.NewPath("spec", "nonResourceAttributes"), sar.Spec.NonResourceAttributes, "disallowed on this kind of request"))
	}
	return errs
}
