package bootstrap

import rbacv1 "platform.io/client/api/rbac/v1"

// rule builds a PolicyRule: rule("get", "list").groups("").resources("pods").
type ruleBuilder struct{ r rbacv1.PolicyRule }

func rule(verbs ...string) ruleBuilder { return ruleBuilder{rbacv1.PolicyRule{Verbs: verbs}} }

func (b ruleBuilder) groups(g ...string) ruleBuilder    { b.r.APIGroups = g; return b }
func (b ruleBuilder) resources(r ...string) ruleBuilder { b.r.Resources = r; return b }
func (b ruleBuilder) names(n ...string) ruleBuilder     { b.r.ResourceNames = n; return b }
func (b ruleBuilder) urls(u ...string) ruleBuilder      { b.r.NonResourceURLs = u; return b }

// rules collects builders into rules.
func rules(bs ...ruleBuilder) []rbacv1.PolicyRule {
	out := make([]rbacv1.PolicyRule, len(bs))
	for i, b := range bs {
		out[i] = b.r
	}
	return out
}

// Verb sets.
var (
	read      = []string{"get", "list", "watch"}
	readWrite = []string{"get", "list", "watch", "create", "update", "patch", "delete", "deletecollection"}
	write     = []string{"create", "update", "patch", "delete", "deletecollection"}
)

// API groups.
const (
	legacy = ""
	apps   = "apps"
	batch  = "batch"
	coord  = "coordination.platform.io"
	authnG = "authentication.platform.io"
	authzG = "authorization.platform.io"
	rbacG  = rbacv1.GroupName
	certs  = "certificates.platform.io"
	autosc = "autoscaling"
)

// eventsRule lets a component record events (the recorder creates, then
// patches or updates a repeated event).
func eventsRule() ruleBuilder {
	return rule("create", "update", "patch").groups(legacy).resources("events")
}
