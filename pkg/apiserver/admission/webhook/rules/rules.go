package rules

import (
	"strings"

	arv1 "platform.io/client/api/admissionregistration/v1"
	"platform.io/client/api/meta"
)

// Request is what a rule is matched against.
type Request struct {
	Operation   arv1.OperationType
	Resource    meta.GroupVersionResource
	Subresource string
	// Namespaced is true for a namespaced resource (a Namespace itself is
	// cluster-scoped).
	Namespaced bool
}

// Matches reports whether r covers req.
func Matches(r arv1.RuleWithOperations, req Request) bool {
	return operation(r.Operations, req.Operation) &&
		anyOf(r.APIGroups, req.Resource.Group) &&
		anyOf(r.APIVersions, req.Resource.Version) &&
		resource(r.Resources, req.Resource.Resource, req.Subresource) &&
		scope(r.Scope, req.Namespaced)
}

// MatchesAny reports whether any of rs covers req.
func MatchesAny(rs []arv1.RuleWithOperations, req Request) bool {
	for _, r := range rs {
		if Matches(r, req) {
			return true
		}
	}
	return false
}

func operation(ops []arv1.OperationType, op arv1.OperationType) bool {
	for _, o := range ops {
		if o == arv1.OperationAll || o == op {
			return true
		}
	}
	return false
}

func anyOf(list []string, v string) bool {
	for _, l := range list {
		if l == "*" || l == v {
			return true
		}
	}
	return false
}

// resource matches "res" or "res/sub" against the patterns as upstream
// does: "*" is every resource (not subresources), "*/*" everything, "res/*"
// res and all its subresources, "*/sub" sub of every resource.
func resource(patterns []string, res, sub string) bool {
	for _, p := range patterns {
		pr, ps, _ := strings.Cut(p, "/")
		if (pr == "*" || pr == res) && (ps == "*" || ps == sub) {
			return true
		}
	}
	return false
}

func scope(s *arv1.ScopeType, namespaced bool) bool {
	if s == nil {
		return true
	}
	switch *s {
	case arv1.ClusterScope:
		return !namespaced
	case arv1.NamespacedScope:
		return namespaced
	default:
		return true
	}
}
