// Package builtin lists the registry rows of every resource the API server
// serves, in the order discovery shows them (the first version of a group
// listed is its preferred version).
package builtin

import (
	"time"

	"platform.io/platform/pkg/apiserver/authz"
	"platform.io/platform/pkg/apiserver/authz/rbac"
	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/registry/admissionregistration/mutatingwebhookconfiguration"
	"platform.io/platform/pkg/apiserver/registry/admissionregistration/validatingwebhookconfiguration"
	"platform.io/platform/pkg/apiserver/registry/apiextensions/customresourcedefinition"
	"platform.io/platform/pkg/apiserver/registry/apiregistration/apiservice"
	"platform.io/platform/pkg/apiserver/registry/apps/controllerrevision"
	"platform.io/platform/pkg/apiserver/registry/apps/daemonset"
	"platform.io/platform/pkg/apiserver/registry/apps/deployment"
	"platform.io/platform/pkg/apiserver/registry/apps/replicaset"
	"platform.io/platform/pkg/apiserver/registry/apps/statefulset"
	"platform.io/platform/pkg/apiserver/registry/authentication/selfsubjectreview"
	"platform.io/platform/pkg/apiserver/registry/authentication/tokenreview"
	"platform.io/platform/pkg/apiserver/registry/authorization/localsubjectaccessreview"
	"platform.io/platform/pkg/apiserver/registry/authorization/selfsubjectaccessreview"
	"platform.io/platform/pkg/apiserver/registry/authorization/selfsubjectrulesreview"
	"platform.io/platform/pkg/apiserver/registry/authorization/subjectaccessreview"
	"platform.io/platform/pkg/apiserver/registry/autoscaling/horizontalpodautoscaler"
	"platform.io/platform/pkg/apiserver/registry/batch/cronjob"
	"platform.io/platform/pkg/apiserver/registry/batch/job"
	"platform.io/platform/pkg/apiserver/registry/coordination/lease"
	"platform.io/platform/pkg/apiserver/registry/core/configmap"
	"platform.io/platform/pkg/apiserver/registry/core/endpoints"
	"platform.io/platform/pkg/apiserver/registry/core/event"
	"platform.io/platform/pkg/apiserver/registry/core/limitrange"
	"platform.io/platform/pkg/apiserver/registry/core/namespace"
	"platform.io/platform/pkg/apiserver/registry/core/node"
	"platform.io/platform/pkg/apiserver/registry/core/pod"
	"platform.io/platform/pkg/apiserver/registry/core/resourcequota"
	"platform.io/platform/pkg/apiserver/registry/core/secret"
	"platform.io/platform/pkg/apiserver/registry/core/service"
	"platform.io/platform/pkg/apiserver/registry/core/serviceaccount"
	"platform.io/platform/pkg/apiserver/registry/rbac/clusterrole"
	"platform.io/platform/pkg/apiserver/registry/rbac/clusterrolebinding"
	"platform.io/platform/pkg/apiserver/registry/rbac/role"
	"platform.io/platform/pkg/apiserver/registry/rbac/rolebinding"
	"platform.io/platform/pkg/apiserver/registry/scheduling/priorityclass"
)

// Config carries the server options resources depend on.
type Config struct {
	EventTTL time.Duration
	// ServiceAccountTokens serves serviceaccounts/token when its tokens are enabled.
	ServiceAccountTokens serviceaccount.TokenConfig
	// Escalation guards writes of the rbac group's roles and bindings; nil
	// lets only system:masters write them.
	Escalation *rbac.Escalation
	// Authorizer answers the access reviews (SubjectAccessReview, local
	// and self): the server's --authorization-mode chain. Nil is
	// AlwaysAllow, the mode of a server with no authorization configured.
	Authorizer authz.Authorizer
	// RuleResolver answers SelfSubjectRulesReview: the rules of the modes
	// that can list them. Nil is AlwaysAllow's rules.
	RuleResolver authz.RuleResolver
	// TokenReviews answers TokenReview: the server's token authenticators
	// and --api-audiences. A nil Authenticator authenticates no token.
	TokenReviews tokenreview.Config
}

// Resources returns the rows of all built-in resources.
func Resources(c Config) []*registry.Resource {
	ttl := int64(c.EventTTL / time.Second)
	z, rules := c.Authorizer, c.RuleResolver
	if z == nil {
		z = authz.AlwaysAllow{}
	}
	if rules == nil {
		rules = authz.AlwaysAllow{}
	}
	cronV1, cronV1beta1 := cronjob.Resources()
	hpaV2, hpaV1 := horizontalpodautoscaler.Resources()
	mutatingV1, mutatingV1beta1 := mutatingwebhookconfiguration.Resources()
	validatingV1, validatingV1beta1 := validatingwebhookconfiguration.Resources()
	// local is filled once every row is known: an APIService may not
	// delegate a group served here.
	local := map[string]bool{}
	esc := c.Escalation
	if esc == nil {
		esc = &rbac.Escalation{}
	}
	rows := []*registry.Resource{
		namespace.Resource(),
		pod.Resource(),
		node.Resource(),
		service.Resource(),
		endpoints.Resource(),
		configmap.Resource(),
		secret.Resource(),
		event.Resource(func() int64 { return ttl }),
		serviceaccount.ResourceWith(c.ServiceAccountTokens),
		limitrange.Resource(),
		resourcequota.Resource(),
		deployment.Resource(),
		replicaset.Resource(),
		daemonset.Resource(),
		statefulset.Resource(),
		controllerrevision.Resource(),
		job.Resource(),
		cronV1,
		cronV1beta1,
		hpaV2,
		hpaV1,
		lease.Resource(),
		role.Resource(esc),
		clusterrole.Resource(esc),
		rolebinding.Resource(esc),
		clusterrolebinding.Resource(esc),
		priorityclass.Resource(),
		mutatingV1,
		validatingV1,
		mutatingV1beta1,
		validatingV1beta1,
		apiservice.Resource(func(g string) bool { return local[g] }),
		customresourcedefinition.Resource(),
	}
	rows = append(rows, tokenreview.Resources(c.TokenReviews)...)
	rows = append(rows, selfsubjectreview.Resources()...)
	rows = append(rows, subjectaccessreview.Resources(z)...)
	rows = append(rows,
		localsubjectaccessreview.Resource(z),
		selfsubjectaccessreview.Resource(z),
		selfsubjectrulesreview.Resource(rules),
	)
	rows = registry.WithUpstreamAliases(rows)
	for _, r := range rows {
		local[r.Group] = true
	}
	return rows
}
