package policy

import (
	"slices"
	"strings"

	auditv1 "platform.io/client/api/audit/v1"

	"platform.io/platform/pkg/apiserver/authz"
	"platform.io/platform/pkg/apiserver/registry"
)

// Decision is what the policy says about one request.
type Decision struct {
	Level auditv1.Level
	// OmitStages are the policy's and the rule's.
	OmitStages []auditv1.Stage
	// OmitManagedFields is the rule's setting, or the policy's.
	OmitManagedFields bool
}

// Evaluator applies a policy. It is safe for concurrent use and never
// changes after New.
type Evaluator struct {
	policy auditv1.Policy
}

// New returns the evaluator of p. Rule groups given by their upstream
// names (rbac.authorization.k8s.io) are read as the groups they stand for,
// as authorization reads them, so one rule covers both names.
func New(p *auditv1.Policy) *Evaluator {
	e := &Evaluator{policy: *p}
	e.policy.Rules = slices.Clone(p.Rules)
	for i := range e.policy.Rules {
		r := &e.policy.Rules[i]
		r.Resources = slices.Clone(r.Resources)
		for j := range r.Resources {
			r.Resources[j].Group = registry.CanonicalGroup(r.Resources[j].Group)
		}
	}
	return e
}

// Evaluate returns the level of the first rule a matches, or None.
func (e *Evaluator) Evaluate(a authz.Attributes) Decision {
	for _, r := range e.policy.Rules {
		if !ruleMatches(&r, a) {
			continue
		}
		d := Decision{Level: r.Level, OmitManagedFields: e.policy.OmitManagedFields}
		d.OmitStages = append(slices.Clone(e.policy.OmitStages), r.OmitStages...)
		if r.OmitManagedFields != nil {
			d.OmitManagedFields = *r.OmitManagedFields
		}
		return d
	}
	return Decision{Level: auditv1.LevelNone, OmitStages: e.policy.OmitStages}
}

func ruleMatches(r *auditv1.PolicyRule, a authz.Attributes) bool {
	if len(r.Users) > 0 && (a.User == nil || !slices.Contains(r.Users, a.User.Name)) {
		return false
	}
	if len(r.UserGroups) > 0 && (a.User == nil || !slices.ContainsFunc(a.User.Groups, func(g string) bool { return slices.Contains(r.UserGroups, g) })) {
		return false
	}
	if len(r.Verbs) > 0 && !slices.Contains(r.Verbs, a.Verb) {
		return false
	}
	if len(r.Namespaces) > 0 || len(r.Resources) > 0 {
		return a.ResourceRequest && resourceMatches(r, a)
	}
	if len(r.NonResourceURLs) > 0 {
		return !a.ResourceRequest && urlMatches(r.NonResourceURLs, a.Path)
	}
	return true
}

func resourceMatches(r *auditv1.PolicyRule, a authz.Attributes) bool {
	if len(r.Namespaces) > 0 && !slices.Contains(r.Namespaces, a.Namespace) {
		return false
	}
	if len(r.Resources) == 0 {
		return true
	}
	for _, gr := range r.Resources {
		if gr.Group != a.APIGroup {
			continue
		}
		if len(gr.Resources) == 0 {
			return true
		}
		if slices.ContainsFunc(gr.Resources, func(p string) bool { return resourcePatternMatches(p, a.Resource, a.Subresource) }) &&
			(len(gr.ResourceNames) == 0 || slices.Contains(gr.ResourceNames, a.Name)) {
			return true
		}
	}
	return false
}

// resourcePatternMatches reads p as upstream does: "*" is everything,
// "pods" the resource without subresources, "pods/log" one subresource,
// "pods/*" the resource with all its subresources, "*/scale" one
// subresource of any resource.
func resourcePatternMatches(p, resource, sub string) bool {
	if p == "*" {
		return true
	}
	full := resource
	if sub != "" {
		full += "/" + sub
	}
	if p == full {
		return true
	}
	if rest, ok := strings.CutSuffix(p, "/*"); ok && rest == resource {
		return true
	}
	if rest, ok := strings.CutPrefix(p, "*/"); ok && sub != "" && rest == sub {
		return true
	}
	return false
}

func urlMatches(patterns []string, path string) bool {
	for _, p := range patterns {
		if p == "*" || p == path {
			return true
		}
		if prefix, ok := strings.CutSuffix(p, "*"); ok && strings.HasPrefix(path, prefix) {
			return true
		}
	}
	return false
}
