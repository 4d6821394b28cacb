package rbac

import (
	"strings"
	"testing"

	rbacv1 "platform.io/client/api/rbac/v1"

	"platform.io/platform/pkg/apiserver/authz"
)

func res(verb, group, resource, sub, ns, name string) authz.Attributes {
	return authz.Attributes{Verb: verb, ResourceRequest: true, APIGroup: group, Resource: resource, Subresource: sub, Namespace: ns, Name: name}
}

func path(verb, p string) authz.Attributes { return authz.Attributes{Verb: verb, Path: p} }

func TestRuleAllows(t *testing.T) {
	podsGet := rbacv1.PolicyRule{Verbs: []string{"get", "list"}, APIGroups: []string{""}, Resources: []string{"pods"}}
	tests := []struct {
		name string
		rule rbacv1.PolicyRule
		a    authz.Attributes
		want bool
	}{
		{"exact", podsGet, res("get", "", "pods", "", "ns", "web"), true},
		{"other verb", podsGet, res("delete", "", "pods", "", "ns", "web"), false},
		{"other group", podsGet, res("get", "apps", "pods", "", "ns", "web"), false},
		{"other resource", podsGet, res("get", "", "services", "", "ns", "web"), false},
		{"subresource not in main resource", podsGet, res("get", "", "pods", "status", "ns", "web"), false},
		{"subresource named", rbacv1.PolicyRule{Verbs: []string{"update"}, APIGroups: []string{""}, Resources: []string{"pods/status"}}, res("update", "", "pods", "status", "", "web"), true},
		{"subresource rule is not the main resource", rbacv1.PolicyRule{Verbs: []string{"get"}, APIGroups: []string{""}, Resources: []string{"pods/status"}}, res("get", "", "pods", "", "", "web"), false},
		{"star subresource", rbacv1.PolicyRule{Verbs: []string{"get"}, APIGroups: []string{"*"}, Resources: []string{"*/scale"}}, res("get", "apps", "deployments", "scale", "ns", "d"), true},
		{"star subresource other sub", rbacv1.PolicyRule{Verbs: []string{"get"}, APIGroups: []string{"*"}, Resources: []string{"*/scale"}}, res("get", "apps", "deployments", "status", "ns", "d"), false},
		{"star subresource not main", rbacv1.PolicyRule{Verbs: []string{"get"}, APIGroups: []string{"*"}, Resources: []string{"*/scale"}}, res("get", "apps", "deployments", "", "ns", "d"), false},
		{"all", rbacv1.PolicyRule{Verbs: []string{"*"}, APIGroups: []string{"*"}, Resources: []string{"*"}}, res("deletecollection", "batch", "jobs", "status", "x", ""), true},
		{"resource names match", rbacv1.PolicyRule{Verbs: []string{"get"}, APIGroups: []string{""}, Resources: []string{"configmaps"}, ResourceNames: []string{"a", "b"}}, res("get", "", "configmaps", "", "ns", "b"), true},
		{"resource names other", rbacv1.PolicyRule{Verbs: []string{"get"}, APIGroups: []string{""}, Resources: []string{"configmaps"}, ResourceNames: []string{"a"}}, res("get", "", "configmaps", "", "ns", "c"), false},
		{"resource names do not grant list", rbacv1.PolicyRule{Verbs: []string{"list"}, APIGroups: []string{""}, Resources: []string{"configmaps"}, ResourceNames: []string{"a"}}, res("list", "", "configmaps", "", "ns", ""), false},
		{"url exact", rbacv1.PolicyRule{Verbs: []string{"get"}, NonResourceURLs: []string{"/healthz"}}, path("get", "/healthz"), true},
		{"url exact is not a prefix", rbacv1.PolicyRule{Verbs: []string{"get"}, NonResourceURLs: []string{"/healthz"}}, path("get", "/healthz/etcd"), false},
		{"url star", rbacv1.PolicyRule{Verbs: []string{"get"}, NonResourceURLs: []string{"/healthz/*"}}, path("get", "/healthz/etcd"), true},
		{"url star other", rbacv1.PolicyRule{Verbs: []string{"get"}, NonResourceURLs: []string{"/healthz/*"}}, path("get", "/metrics"), false},
		{"url all", rbacv1.PolicyRule{Verbs: []string{"*"}, NonResourceURLs: []string{"*"}}, path("post", "/anything"), true},
		{"url verb", rbacv1.PolicyRule{Verbs: []string{"get"}, NonResourceURLs: []string{"*"}}, path("post", "/x"), false},
		{"resource rule grants no url", rbacv1.PolicyRule{Verbs: []string{"*"}, APIGroups: []string{"*"}, Resources: []string{"*"}}, path("get", "/healthz"), false},
		{"url rule grants no resource", rbacv1.PolicyRule{Verbs: []string{"*"}, NonResourceURLs: []string{"*"}}, res("get", "", "pods", "", "", ""), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RuleAllows(&tt.a, &tt.rule); got != tt.want {
				t.Errorf("RuleAllows = %v, want %v", got, tt.want)
			}
		})
	}
}

func pr(verbs, groups, resources, names, urls []string) rbacv1.PolicyRule {
	return rbacv1.PolicyRule{Verbs: verbs, APIGroups: groups, Resources: resources, ResourceNames: names, NonResourceURLs: urls}
}

func s(v ...string) []string { return v }

func TestCovers(t *testing.T) {
	tests := []struct {
		name             string
		owner, requested []rbacv1.PolicyRule
		want             bool
		missing          int
	}{
		{"same", []rbacv1.PolicyRule{pr(s("get"), s(""), s("pods"), nil, nil)}, []rbacv1.PolicyRule{pr(s("get"), s(""), s("pods"), nil, nil)}, true, 0},
		{"split over rules", []rbacv1.PolicyRule{pr(s("get"), s(""), s("pods"), nil, nil), pr(s("list"), s(""), s("pods"), nil, nil)},
			[]rbacv1.PolicyRule{pr(s("get", "list"), s(""), s("pods"), nil, nil)}, true, 0},
		{"missing verb", []rbacv1.PolicyRule{pr(s("get"), s(""), s("pods"), nil, nil)}, []rbacv1.PolicyRule{pr(s("get", "delete"), s(""), s("pods"), nil, nil)}, false, 1},
		{"star verb needs star", []rbacv1.PolicyRule{pr(s("get", "list", "watch", "create", "update", "patch", "delete", "deletecollection"), s(""), s("pods"), nil, nil)},
			[]rbacv1.PolicyRule{pr(s("*"), s(""), s("pods"), nil, nil)}, false, 1},
		{"star owner", []rbacv1.PolicyRule{pr(s("*"), s("*"), s("*"), nil, nil)}, []rbacv1.PolicyRule{pr(s("get"), s("apps"), s("deployments/scale"), s("x"), nil)}, true, 0},
		{"star subresource covers", []rbacv1.PolicyRule{pr(s("get"), s("apps"), s("*/scale"), nil, nil)}, []rbacv1.PolicyRule{pr(s("get"), s("apps"), s("deployments/scale"), nil, nil)}, true, 0},
		{"main resource does not cover sub", []rbacv1.PolicyRule{pr(s("get"), s(""), s("pods"), nil, nil)}, []rbacv1.PolicyRule{pr(s("get"), s(""), s("pods/status"), nil, nil)}, false, 1},
		{"names covered by all", []rbacv1.PolicyRule{pr(s("get"), s(""), s("secrets"), nil, nil)}, []rbacv1.PolicyRule{pr(s("get"), s(""), s("secrets"), s("a"), nil)}, true, 0},
		{"all not covered by names", []rbacv1.PolicyRule{pr(s("get"), s(""), s("secrets"), s("a"), nil)}, []rbacv1.PolicyRule{pr(s("get"), s(""), s("secrets"), nil, nil)}, false, 1},
		{"other name", []rbacv1.PolicyRule{pr(s("get"), s(""), s("secrets"), s("a"), nil)}, []rbacv1.PolicyRule{pr(s("get"), s(""), s("secrets"), s("a", "b"), nil)}, false, 1},
		{"url prefix", []rbacv1.PolicyRule{pr(s("get"), nil, nil, nil, s("/healthz/*"))}, []rbacv1.PolicyRule{pr(s("get"), nil, nil, nil, s("/healthz/etcd", "/healthz/a*"))}, true, 0},
		{"url outside prefix", []rbacv1.PolicyRule{pr(s("get"), nil, nil, nil, s("/healthz/*"))}, []rbacv1.PolicyRule{pr(s("get"), nil, nil, nil, s("/metrics", "/healthz"))}, false, 2},
		{"wider url star", []rbacv1.PolicyRule{pr(s("get"), nil, nil, nil, s("/healthz"))}, []rbacv1.PolicyRule{pr(s("get"), nil, nil, nil, s("/healthz*"))}, false, 1},
		{"nothing requested", nil, nil, true, 0},
		{"nothing held", nil, []rbacv1.PolicyRule{pr(s("get"), s(""), s("pods"), nil, nil)}, false, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ok, missing := Covers(tt.owner, tt.requested)
			if ok != tt.want || len(missing) != tt.missing {
				t.Errorf("Covers = %v, missing %v; want %v with %d missing", ok, missing, tt.want, tt.missing)
			}
		})
	}
}

// FuzzRuleAllows checks that matching never panics and agrees with
// Covers: a rule that covers the single-permission rule of a request
// allows the request.
func FuzzRuleAllows(f *testing.F) {
	f.Add("get", "", "pods", "status", "web", "*/status", "web", "/healthz/*", "/healthz/x")
	f.Add("*", "apps", "deployments", "", "", "*", "", "*", "/")
	f.Fuzz(func(t *testing.T, verb, group, resource, sub, name, ruleRes, ruleName, ruleURL, path string) {
		if strings.Contains(resource+sub, "/") {
			return // request paths never give these
		}
		rule := rbacv1.PolicyRule{Verbs: []string{verb}, APIGroups: []string{group}, Resources: []string{ruleRes}}
		if ruleName != "" {
			rule.ResourceNames = []string{ruleName}
		}
		a := authz.Attributes{Verb: verb, ResourceRequest: true, APIGroup: group, Resource: resource, Subresource: sub, Name: name}
		full := resource
		if sub != "" {
			full += "/" + sub
		}
		piece := rbacv1.PolicyRule{Verbs: []string{verb}, APIGroups: []string{group}, Resources: []string{full}}
		if name != "" {
			piece.ResourceNames = []string{name}
		}
		if ok, _ := Covers([]rbacv1.PolicyRule{rule}, []rbacv1.PolicyRule{piece}); ok && resource != "" && !RuleAllows(&a, &rule) {
			t.Errorf("rule %+v covers %+v but does not allow %+v", rule, piece, a)
		}
		urlRule := rbacv1.PolicyRule{Verbs: []string{verb}, NonResourceURLs: []string{ruleURL}}
		np := authz.Attributes{Verb: verb, Path: path}
		if ok, _ := Covers([]rbacv1.PolicyRule{urlRule}, []rbacv1.PolicyRule{{Verbs: []string{verb}, NonResourceURLs: []string{path}}}); ok != RuleAllows(&np, &urlRule) {
			t.Errorf("url rule %q: covers %q = %v, allows = %v", ruleURL, path, ok, !ok)
		}
	})
}
