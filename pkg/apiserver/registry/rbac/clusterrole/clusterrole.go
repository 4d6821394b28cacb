package clusterrole

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

// Resource is the clusterroles row; esc decides who may write which rules.
func Resource(esc *rbac.Escalation) *registry.Resource {
	validate := func(r *rbacv1.ClusterRole) field.ErrorList {
		errs := rbacvalidation.Rules(r.Rules, false, field.NewPath("rules"))
		return append(errs, rbacvalidation.AggregationRule(r.AggregationRule, field.NewPath("aggregationRule"))...)
	}
	check := func(ctx context.Context, r *rbacv1.ClusterRole) error {
		return esc.CheckRole(ctx, "clusterroles", "", r.Name, r.Rules, r.AggregationRule != nil)
	}
	return &registry.Resource{
		Group: rbacv1.GroupName, Version: "v1", Name: "clusterroles", Singular: "clusterrole", Kind: "ClusterRole",
		New:      func() meta.Object { return &rbacv1.ClusterRole{} },
		NameFunc: validation.IsPathSegmentName,
		Strategy: registry.Typed[rbacv1.ClusterRole]{
			ValidateFunc:       validate,
			ValidateUpdateFunc: func(r, _ *rbacv1.ClusterRole) field.ErrorList { return validate(r) },
			CheckCreateFunc:    check,
			CheckUpdateFunc: func(ctx context.Context, r, old *rbacv1.ClusterRole) error {
				if reflect.DeepEqual(r.Rules, old.Rules) && reflect.DeepEqual(r.AggregationRule, old.AggregationRule) {
					return nil // grants nothing new (metadata, finalizers)
				}
				return check(ctx, r)
			},
		},
		AllowCreateOnUpdate: true,
	}
}
