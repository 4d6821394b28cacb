package rbacvalidation

import (
	rbacv1 "platform.io/client/api/rbac/v1"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/registry/apps/appsvalidation"
	"platform.io/platform/pkg/apiserver/validation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// Rules validates the rules of a Role (namespaced) or ClusterRole.
func Rules(rules []rbacv1.PolicyRule, namespaced bool, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i := range rules {
		errs = append(errs, Rule(&rules[i], namespaced, p.Index(i))...)
	}
	return errs
}

// Rule validates one rule: it needs verbs, and either resources with API
// groups or non-resource URLs, which a namespaced role cannot grant.
func Rule(r *rbacv1.PolicyRule, namespaced bool, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(r.Verbs) == 0 {
		errs = append(errs, field.Required(p.Child("verbs"), "verbs must contain at least one value"))
	}
	if len(r.NonResourceURLs) > 0 {
		if namespaced {
			errs = append(errs, field.Invalid(p.Child("nonResourceURLs"), r.NonResourceURLs, "namespaced rules cannot apply to non-resource URLs"))
		}
		if len(r.APIGroups) > 0 || len(r.Resources) > 0 || len(r.ResourceNames) > 0 {
			errs = append(errs, field.Invalid(p.Child("nonResourceURLs"), r.NonResourceURLs, "rules cannot apply to both regular resources and non-resource URLs"))
		}
		return errs
	}
	if len(r.APIGroups) == 0 {
		errs = append(errs, field.Required(p.Child("apiGroups"), "resource rules must supply at least one api group"))
	}
	if len(r.Resources) == 0 {
		errs = append(errs, field.Required(p.Child("resources"), "resource rules must supply at least one resource"))
	}
	return errs
}

// AggregationRule validates a ClusterRole's aggregationRule.
func AggregationRule(a *rbacv1.AggregationRule, p *field.Path) field.ErrorList {
	if a == nil {
		return nil
	}
	sp := p.Child("clusterRoleSelectors")
	if len(a.ClusterRoleSelectors) == 0 {
		return field.ErrorList{field.Required(sp, "at least one clusterRoleSelector required if aggregationRule is non-nil")}
	}
	var errs field.ErrorList
	for i := range a.ClusterRoleSelectors {
		errs = append(errs, appsvalidation.LabelSelector(&a.ClusterRoleSelectors[i], sp.Index(i))...)
	}
	return errs
}

// RoleRef validates a binding's roleRef; a ClusterRoleBinding may only
// refer to a ClusterRole.
func RoleRef(r *rbacv1.RoleRef, namespaced bool, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if r.APIGroup != rbacv1.GroupName {
		errs = append(errs, field.NotSupported(p.Child("apiGroup"), r.APIGroup, []string{rbacv1.GroupName}))
	}
	kinds := []string{"ClusterRole"}
	if namespaced {
		kinds = []string{"Role", "ClusterRole"}
	}
	known := false
	for _, k := range kinds {
		known = known || r.Kind == k
	}
	if !known {
		errs = append(errs, field.NotSupported(p.Child("kind"), r.Kind, kinds))
	}
	if r.Name == "" {
		errs = append(errs, field.Required(p.Child("name"), ""))
	} else {
		for _, msg := range validation.IsPathSegmentName(r.Name) {
			errs = append(errs, field.Invalid(p.Child("name"), r.Name, msg))
		}
	}
	return errs
}

// Subjects validates a binding's subjects; in a ClusterRoleBinding a
// service account needs its namespace.
func Subjects(subjects []rbacv1.Subject, namespaced bool, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i := range subjects {
		errs = append(errs, subject(&subjects[i], namespaced, p.Index(i))...)
	}
	return errs
}

func subject(s *rbacv1.Subject, namespaced bool, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if s.Name == "" {
		errs = append(errs, field.Required(p.Child("name"), ""))
	}
	switch s.Kind {
	case rbacv1.ServiceAccountKind:
		if s.Name != "" {
			for _, msg := range validation.IsDNS1123Subdomain(s.Name) {
				errs = append(errs, field.Invalid(p.Child("name"), s.Name, msg))
			}
		}
		if s.APIGroup != "" {
			errs = append(errs, field.NotSupported(p.Child("apiGroup"), s.APIGroup, []string{""}))
		}
		if !namespaced && s.Namespace == "" {
			errs = append(errs, field.Required(p.Child("namespace"), ""))
		}
	case rbacv1.UserKind, rbacv1.GroupKind:
		if s.APIGroup != rbacv1.GroupName {
			errs = append(errs, field.NotSupported(p.Child("apiGroup"), s.APIGroup, []string{rbacv1.GroupName}))
		}
	default:
		errs = append(errs, field.NotSupported(p.Child("kind"), s.Kind, []string{rbacv1.ServiceAccountKind, rbacv1.UserKind, rbacv1.GroupKind}))
	}
	return errs
}

// RoleRefUnchanged refuses a change of roleRef, which is immutable.
func RoleRefUnchanged(r, old *rbacv1.RoleRef) field.ErrorList {
	if *r != *old {
		return field.ErrorList{field.Invalid(field.NewPath("roleRef"), *r, "cannot change roleRef")}
	}
	return nil
}

// DefaultBinding fills the API groups upstream defaults: the roleRef's,
// and those of User and Group subjects. The group's upstream name
// (rbac.authorization.k8s.io, which the stock kubectl's create rolebinding
// writes) is stored as the group's own name, which it stands for.
func DefaultBinding(ref *rbacv1.RoleRef, subjects []rbacv1.Subject) {
	ref.APIGroup = registry.CanonicalGroup(ref.APIGroup)
	if ref.APIGroup == "" {
		ref.APIGroup = rbacv1.GroupName
	}
	for i := range subjects {
		s := &subjects[i]
		s.APIGroup = registry.CanonicalGroup(s.APIGroup)
		if s.APIGroup == "" && (s.Kind == rbacv1.UserKind || s.Kind == rbacv1.GroupKind) {
			s.APIGroup = rbacv1.GroupName
		}
	}
}
