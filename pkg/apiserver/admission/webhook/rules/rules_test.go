package rules

import (
	"testing"

	arv1 "platform.io/client/api/admissionregistration/v1"
	"platform.io/client/api/meta"
)

func rule(ops []arv1.OperationType, groups, versions, resources []string, scope arv1.ScopeType) arv1.RuleWithOperations {
	r := arv1.RuleWithOperations{Operations: ops, Rule: arv1.Rule{APIGroups: groups, APIVersions: versions, Resources: resources}}
	if scope != "" {
		r.Scope = &scope
	}
	return r
}

var (
	create  = []arv1.OperationType{arv1.Create}
	all     = []arv1.OperationType{arv1.OperationAll}
	any     = []string{"*"}
	core    = []string{""}
	v1      = []string{"v1"}
	pods    = meta.GroupVersionResource{Version: "v1", Resource: "pods"}
	deploys = meta.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	nodes   = meta.GroupVersionResource{Version: "v1", Resource: "nodes"}
)

func TestMatches(t *testing.T) {
	for _, tc := range []struct {
		name string
		rule arv1.RuleWithOperations
		req  Request
		want bool
	}{
		{"exact", rule(create, core, v1, []string{"pods"}, ""), Request{arv1.Create, pods, "", true}, true},
		{"other operation", rule(create, core, v1, []string{"pods"}, ""), Request{arv1.Update, pods, "", true}, false},
		{"all operations", rule(all, core, v1, []string{"pods"}, ""), Request{arv1.Delete, pods, "", true}, true},
		{"other group", rule(create, core, v1, []string{"deployments"}, ""), Request{arv1.Create, deploys, "", true}, false},
		{"any group and version", rule(create, any, any, []string{"deployments"}, ""), Request{arv1.Create, deploys, "", true}, true},
		{"other version", rule(create, []string{"apps"}, []string{"v1beta1"}, []string{"deployments"}, ""), Request{arv1.Create, deploys, "", true}, false},
		{"resource does not cover subresource", rule(create, core, v1, []string{"pods"}, ""), Request{arv1.Update, pods, "status", true}, false},
		{"star does not cover subresource", rule(all, core, v1, []string{"*"}, ""), Request{arv1.Update, pods, "status", true}, false},
		{"star covers resources", rule(all, core, v1, []string{"*"}, ""), Request{arv1.Update, pods, "", true}, true},
		{"named subresource", rule(all, core, v1, []string{"pods/status"}, ""), Request{arv1.Update, pods, "status", true}, true},
		{"named subresource not the resource", rule(all, core, v1, []string{"pods/status"}, ""), Request{arv1.Update, pods, "", true}, false},
		{"other subresource", rule(all, core, v1, []string{"pods/status"}, ""), Request{arv1.Create, pods, "binding", true}, false},
		{"star scale", rule(all, any, any, []string{"*/scale"}, ""), Request{arv1.Update, deploys, "scale", true}, true},
		{"star scale not status", rule(all, any, any, []string{"*/scale"}, ""), Request{arv1.Update, deploys, "status", true}, false},
		{"pods star", rule(all, core, v1, []string{"pods/*"}, ""), Request{arv1.Create, pods, "eviction", true}, true},
		{"pods star covers pods too", rule(all, core, v1, []string{"pods/*"}, ""), Request{arv1.Create, pods, "", true}, true},
		{"pods star not nodes", rule(all, core, v1, []string{"pods/*"}, ""), Request{arv1.Create, nodes, "", false}, false},
		{"star star", rule(all, any, any, []string{"*/*"}, ""), Request{arv1.Create, pods, "binding", true}, true},
		{"star star main", rule(all, any, any, []string{"*/*"}, ""), Request{arv1.Create, pods, "", true}, true},
		{"cluster scope refuses namespaced", rule(all, any, any, []string{"*"}, arv1.ClusterScope), Request{arv1.Create, pods, "", true}, false},
		{"cluster scope", rule(all, any, any, []string{"*"}, arv1.ClusterScope), Request{arv1.Create, nodes, "", false}, true},
		{"namespaced scope refuses cluster", rule(all, any, any, []string{"*"}, arv1.NamespacedScope), Request{arv1.Create, nodes, "", false}, false},
		{"namespaced scope", rule(all, any, any, []string{"*"}, arv1.NamespacedScope), Request{arv1.Create, pods, "", true}, true},
		{"all scopes", rule(all, any, any, []string{"*"}, arv1.AllScopes), Request{arv1.Create, nodes, "", false}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Matches(tc.rule, tc.req); got != tc.want {
				t.Errorf("Matches = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestMatchesAny(t *testing.T) {
	rs := []arv1.RuleWithOperations{rule(create, core, v1, []string{"nodes"}, ""), rule(create, core, v1, []string{"pods"}, "")}
	if !MatchesAny(rs, Request{arv1.Create, pods, "", true}) || MatchesAny(rs[:1], Request{arv1.Create, pods, "", true}) || MatchesAny(nil, Request{arv1.Create, pods, "", true}) {
		t.Error("MatchesAny does not take any of the rules")
	}
}
