package rbac

import (
	"context"
	"fmt"
	"strings"

	rbacv1 "platform.io/client/api/rbac/v1"

	"platform.io/platform/pkg/apiserver/authz"
	"platform.io/platform/pkg/component/authn"
)

// Authorizer is mode RBAC: it allows what a rule of a role bound to the
// user allows, and has no opinion on everything else (RBAC never denies).
type Authorizer struct {
	idx *index
}

var (
	_ authz.Authorizer   = (*Authorizer)(nil)
	_ authz.RuleResolver = (*Authorizer)(nil)
)

// Authorize implements authz.Authorizer. The reason of an Allow names the
// binding and role, as upstream's does; NoOpinion has a reason only when a
// binding of the user refers to a missing role.
func (z *Authorizer) Authorize(_ context.Context, a authz.Attributes) (authz.Decision, string, error) {
	if a.User == nil {
		return authz.NoOpinion, "", nil
	}
	var allowedBy *binding
	var missing []string
	z.idx.visit(a.User.Name, a.User.Groups, a.Namespace, func(b *binding, rules []rbacv1.PolicyRule, ok bool) bool {
		if !ok {
			missing = append(missing, missingRole(b))
			return true
		}
		for i := range rules {
			if RuleAllows(&a, &rules[i]) {
				allowedBy = b
				return false
			}
		}
		return true
	})
	if allowedBy != nil {
		return authz.Allow, allowedBy.allowed, nil
	}
	if len(missing) > 0 {
		return authz.NoOpinion, "RBAC: " + strings.Join(missing, ", "), nil
	}
	return authz.NoOpinion, "", nil
}

func missingRole(b *binding) string {
	if b.ref.Kind == "Role" {
		return fmt.Sprintf("role.%s %q not found", rbacv1.GroupName, b.ref.Name)
	}
	return fmt.Sprintf("clusterrole.%s %q not found", rbacv1.GroupName, b.ref.Name)
}

// PolicyRules returns every rule granted to u in namespace (cluster-wide
// ones included; namespace "" gives only those), and whether some binding
// refers to a missing role.
func (z *Authorizer) PolicyRules(u *authn.User, namespace string) ([]rbacv1.PolicyRule, bool) {
	var out []rbacv1.PolicyRule
	incomplete := false
	z.idx.visit(u.Name, u.Groups, namespace, func(_ *binding, rules []rbacv1.PolicyRule, ok bool) bool {
		incomplete = incomplete || !ok
		out = append(out, rules...)
		return true
	})
	return out, incomplete
}

// RulesFor implements authz.RuleResolver for SelfSubjectRulesReview.
func (z *Authorizer) RulesFor(_ context.Context, u *authn.User, namespace string) ([]authz.ResourceRule, []authz.NonResourceRule, bool, error) {
	rules, incomplete := z.PolicyRules(u, namespace)
	var rr []authz.ResourceRule
	var nr []authz.NonResourceRule
	for _, r := range rules {
		if len(r.Resources) > 0 {
			rr = append(rr, authz.ResourceRule{Verbs: r.Verbs, APIGroups: r.APIGroups, Resources: r.Resources, ResourceNames: r.ResourceNames})
		}
		if len(r.NonResourceURLs) > 0 {
			nr = append(nr, authz.NonResourceRule{Verbs: r.Verbs, NonResourceURLs: r.NonResourceURLs})
		}
	}
	return rr, nr, incomplete, nil
}

// RoleRefRules returns the rules of the role ref names for a binding in
// namespace, and false when it does not exist.
func (z *Authorizer) RoleRefRules(ref rbacv1.RoleRef, namespace string) ([]rbacv1.PolicyRule, bool) {
	return z.idx.roleRules(ref, namespace)
}
