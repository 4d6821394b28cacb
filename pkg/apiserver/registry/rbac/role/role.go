package role

import (
	"context"
	"reflect"

	"platform.io/client/api/meta"
	rbacv1 "platform.io/client/api/rbac/v1"

	"platform.io/platform/pkg/apiserver/authz/rbac"
	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/registry/rbac/rbacvalidation"
	"platform.io/platform/pkg/apiserver/validation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// Resource is the roles row; esc decides who may write which rules.
func Resource(esc *rbac.Escalation) *registry.Resource {
	validate := func(r *rbacv1.Role) field.ErrorList {
		return rbacvalidation.Rules(r.Rules, true, field.NewPath("rules"))
	}
	return &registry.Resource{
		Group: rbacv1.GroupName, Version: "v1", Name: "roles", Singular: "role", Kind: "Role",
		Namespaced: true,
		New:        func() meta.Object { return &rbacv1.Role{} },
		NameFunc:   validation.IsPathSegmentName,
		Strategy: registry.Typed[rbacv1.Role]{
			ValidateFunc:       validate,
			ValidateUpdateFunc: func(r, _ *rbacv1.Role) field.ErrorList { return validate(r) },
			CheckCreateFunc: func(ctx context.Context, r *rbacv1.Role) error {
				return esc.CheckRole(ctx, "roles", r.Namespace, r.Name, r.Rules, false)
			},
			CheckUpdateFunc: func(ctx context.Context, r, old *rbacv1.Role) error {
				if reflect.DeepEqual(r.Rules, old.Rules) {
					return nil // grants nothing new (metadata, finalizers)
				}
				return esc.CheckRole(ctx, "roles", r.Namespace, r.Name, r.Rules, false)
			},
		},
		AllowCreateOnUpdate: true,
	}
}
