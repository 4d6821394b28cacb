package clusterrolebinding

import (
	"context"
	"slices"

	"platform.io/client/api/meta"
	rbacv1 "platform.io/client/api/rbac/v1"

	"platform.io/platform/pkg/apiserver/authz/rbac"
	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/registry/rbac/bindingtable"
	"platform.io/platform/pkg/apiserver/registry/rbac/rbacvalidation"
	"platform.io/platform/pkg/apiserver/validation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// Resource is the clusterrolebindings row; esc decides who may grant which role.
func Resource(esc *rbac.Escalation) *registry.Resource {
	validate := func(b *rbacv1.ClusterRoleBinding) field.ErrorList {
		errs := rbacvalidation.RoleRef(&b.RoleRef, false, field.NewPath("roleRef"))
		return append(errs, rbacvalidation.Subjects(b.Subjects, false, field.NewPath("subjects"))...)
	}
	check := func(ctx context.Context, b *rbacv1.ClusterRoleBinding) error {
		return esc.CheckBinding(ctx, "clusterrolebindings", "", b.Name, b.RoleRef)
	}
	return &registry.Resource{
		Group: rbacv1.GroupName, Version: "v1", Name: "clusterrolebindings", Singular: "clusterrolebinding", Kind: "ClusterRoleBinding",
		New:      func() meta.Object { return &rbacv1.ClusterRoleBinding{} },
		NameFunc: validation.IsPathSegmentName,
		Strategy: registry.Typed[rbacv1.ClusterRoleBinding]{
			DefaultFunc:  func(b *rbacv1.ClusterRoleBinding) { rbacvalidation.DefaultBinding(&b.RoleRef, b.Subjects) },
			ValidateFunc: validate,
			ValidateUpdateFunc: func(b, old *rbacv1.ClusterRoleBinding) field.ErrorList {
				return append(validate(b), rbacvalidation.RoleRefUnchanged(&b.RoleRef, &old.RoleRef)...)
			},
			CheckCreateFunc: check,
			CheckUpdateFunc: func(ctx context.Context, b, old *rbacv1.ClusterRoleBinding) error {
				if slices.Equal(b.Subjects, old.Subjects) {
					return nil // grants nothing new (metadata, finalizers)
				}
				return check(ctx, b)
			},
		},
		AllowCreateOnUpdate: true,
		Table: bindingtable.Columns(func(obj meta.Object) (*meta.ObjectMeta, rbacv1.RoleRef, []rbacv1.Subject) {
			b := obj.(*rbacv1.ClusterRoleBinding)
			return &b.ObjectMeta, b.RoleRef, b.Subjects
		}),
	}
}
