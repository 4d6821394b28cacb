package rbac

import (
	"slices"
	"strings"

	rbacv1 "platform.io/client/api/rbac/v1"

	"platform.io/platform/pkg/apiserver/authz"
)

// RuleAllows reports whether rule grants the request a describes, as
// upstream matches: "*" matches any verb, group or resource; a rule
// resource "*/scale" matches the scale subresource of any resource, and
// "pods" does not match "pods/status"; resourceNames, when present, must
// name the object (so a list, which names none, is not granted by them);
// a non-resource URL ending in "*" matches every path it prefixes.
func RuleAllows(a *authz.Attributes, rule *rbacv1.PolicyRule) bool {
	if !matchesOrAll(rule.Verbs, a.Verb, rbacv1.VerbAll) {
		return false
	}
	if !a.ResourceRequest {
		return urlMatches(rule.NonResourceURLs, a.Path)
	}
	return matchesOrAll(rule.APIGroups, a.APIGroup, rbacv1.APIGroupAll) &&
		resourceMatches(rule.Resources, a.Resource, a.Subresource) &&
		(len(rule.ResourceNames) == 0 || slices.Contains(rule.ResourceNames, a.Name))
}

func matchesOrAll(list []string, v, all string) bool {
	for _, x := range list {
		if x == all || x == v {
			return true
		}
	}
	return false
}

func resourceMatches(list []string, resource, sub string) bool {
	for _, r := range list {
		if r == rbacv1.ResourceAll {
			return true
		}
		if sub == "" {
			if r == resource {
				return true
			}
			continue
		}
		// r is "resource/sub" or "*/sub".
		if i := strings.IndexByte(r, '/'); i >= 0 && r[i+1:] == sub && (r[:i] == resource || r[:i] == rbacv1.ResourceAll) {
			return true
		}
	}
	return false
}

func urlMatches(list []string, path string) bool {
	for _, u := range list {
		if u == rbacv1.NonResourceAll || u == path {
			return true
		}
		if strings.HasSuffix(u, "*") && strings.HasPrefix(path, u[:len(u)-1]) {
			return true
		}
	}
	return false
}

// Covers reports whether the owner rules grant everything the requested
// rules do, as upstream's escalation check decides: each requested rule
// is broken into single verb/group/resource/name (or verb/URL) rules and
// each of those must be within one owner rule. It returns the pieces no
// owner rule covers.
func Covers(owner, requested []rbacv1.PolicyRule) (bool, []rbacv1.PolicyRule) {
	var missing []rbacv1.PolicyRule
	for i := range requested {
		for _, piece := range breakdown(&requested[i]) {
			if !coveredByAny(owner, &piece) {
				missing = append(missing, piece)
			}
		}
	}
	return len(missing) == 0, missing
}

// breakdown splits r into rules of one verb and one group, resource and
// name (or one verb and one URL).
func breakdown(r *rbacv1.PolicyRule) []rbacv1.PolicyRule {
	var out []rbacv1.PolicyRule
	for _, verb := range r.Verbs {
		for _, g := range r.APIGroups {
			for _, res := range r.Resources {
				if len(r.ResourceNames) == 0 {
					out = append(out, rbacv1.PolicyRule{Verbs: []string{verb}, APIGroups: []string{g}, Resources: []string{res}})
				}
				for _, n := range r.ResourceNames {
					out = append(out, rbacv1.PolicyRule{Verbs: []string{verb}, APIGroups: []string{g}, Resources: []string{res}, ResourceNames: []string{n}})
				}
			}
		}
		for _, u := range r.NonResourceURLs {
			out = append(out, rbacv1.PolicyRule{Verbs: []string{verb}, NonResourceURLs: []string{u}})
		}
	}
	return out
}

func coveredByAny(owner []rbacv1.PolicyRule, piece *rbacv1.PolicyRule) bool {
	for i := range owner {
		if ruleCovers(&owner[i], piece) {
			return true
		}
	}
	return false
}

// ruleCovers reports whether owner grants all of the single piece.
func ruleCovers(owner, piece *rbacv1.PolicyRule) bool {
	if !allIn(owner.Verbs, piece.Verbs, rbacv1.VerbAll) {
		return false
	}
	if len(piece.NonResourceURLs) > 0 {
		for _, u := range piece.NonResourceURLs {
			if !urlCovers(owner.NonResourceURLs, u) {
				return false
			}
		}
		return true
	}
	if !allIn(owner.APIGroups, piece.APIGroups, rbacv1.APIGroupAll) {
		return false
	}
	for _, res := range piece.Resources {
		if !resourceCovers(owner.Resources, res) {
			return false
		}
	}
	if len(owner.ResourceNames) == 0 {
		return true
	}
	// A piece for all names is not within a rule for some names.
	return len(piece.ResourceNames) > 0 && allIn(owner.ResourceNames, piece.ResourceNames, "")
}

// allIn reports whether every value is in set, or set holds all ("" for
// no wildcard).
func allIn(set, values []string, all string) bool {
	if all != "" && slices.Contains(set, all) {
		return true
	}
	for _, v := range values {
		if !slices.Contains(set, v) {
			return false
		}
	}
	return true
}

// resourceCovers: "*" covers all, a name covers itself, and "*/sub" covers
// any "res/sub".
func resourceCovers(set []string, res string) bool {
	if slices.Contains(set, rbacv1.ResourceAll) || slices.Contains(set, res) {
		return true
	}
	i := strings.IndexByte(res, '/')
	return i >= 0 && slices.Contains(set, "*/"+res[i+1:])
}

// urlCovers: "*" and a matching prefix ending in "*" cover a URL (or a
// narrower prefix), an exact URL covers itself.
func urlCovers(set []string, u string) bool {
	for _, o := range set {
		if o == rbacv1.NonResourceAll || o == u {
			return true
		}
		if strings.HasSuffix(o, "*") && strings.HasPrefix(u, o[:len(o)-1]) {
			return true
		}
	}
	return false
}
