package rbac

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	apierrors "platform.io/client/api/errors"
	rbacv1 "platform.io/client/api/rbac/v1"

	"platform.io/platform/pkg/apiserver/authz"
	"platform.io/platform/pkg/component/authn"
)

// SystemMasters is the group whose members may grant anything, as
// upstream's escalation check lets them.
const SystemMasters = "system:masters"

// APIServerUser is who the API server's own writes of RBAC objects
// (bootstrap reconciliation, aggregation) are made as: in system:masters,
// as upstream's loopback user is.
func APIServerUser() *authn.User {
	return &authn.User{Name: "system:apiserver", Groups: []string{SystemMasters, "system:authenticated"}}
}

// Escalation prevents a user from granting permissions they do not hold:
// a role's rules must be covered by the writer's own rules (in the role's
// namespace plus cluster-wide) unless the writer may "escalate" that role,
// and a binding's role must be covered by the writer's rules in the
// binding's namespace unless the writer may "bind" it. The writer comes
// from the request context; a request without one is anonymous.
type Escalation struct {
	// policy resolves users' rules; set once the policy exists.
	policy atomic.Pointer[Authorizer]
	// chain decides the escalate and bind verbs; the server's
	// authorization chain, as upstream asks it.
	chain atomic.Pointer[authz.Authorizer]
	// roles reads a binding's role as stored; when unset, the policy's
	// index is used.
	roles atomic.Pointer[RoleSource]
}

// RoleSource returns the rules of the role ref names for a binding in
// namespace, false when it does not exist (Policy.StoredRoleRefRules).
type RoleSource func(ctx context.Context, ref rbacv1.RoleRef, namespace string) ([]rbacv1.PolicyRule, bool, error)

// SetRoleSource sets where bindings' roles are read: storage, so that a
// binding written right after its role finds it.
func (e *Escalation) SetRoleSource(f RoleSource) { e.roles.Store(&f) }

// SetPolicy sets the rules every check compares against.
func (e *Escalation) SetPolicy(p *Authorizer) { e.policy.Store(p) }

// SetAuthorizer sets the chain asked about the escalate and bind verbs.
func (e *Escalation) SetAuthorizer(z authz.Authorizer) { e.chain.Store(&z) }

func userFrom(ctx context.Context) *authn.User {
	if u, ok := authn.UserFrom(ctx); ok && u != nil {
		return u
	}
	return authn.AnonymousUser()
}

// allowedVerb asks the chain whether u may use verb on the role.
func (e *Escalation) allowedVerb(ctx context.Context, u *authn.User, verb, resource, namespace, name string) bool {
	z := e.chain.Load()
	if z == nil {
		return false
	}
	d, _, _ := (*z).Authorize(ctx, authz.Attributes{
		User: u, Verb: verb, ResourceRequest: true,
		APIGroup: rbacv1.GroupName, APIVersion: "v1", Resource: resource, Namespace: namespace, Name: name,
	})
	return d == authz.Allow
}

// CheckRole decides a write of a Role (resource "roles", in namespace) or a
// ClusterRole ("clusterroles", namespace ""). An aggregationRule needs the
// escalate verb, since what it grants is not known in advance.
func (e *Escalation) CheckRole(ctx context.Context, resource, namespace, name string, rules []rbacv1.PolicyRule, aggregated bool) error {
	u := userFrom(ctx)
	if slices.Contains(u.Groups, SystemMasters) || e.allowedVerb(ctx, u, "escalate", resource, namespace, name) {
		return nil
	}
	gr := rbacv1.Resource(resource)
	if aggregated {
		return apierrors.NewForbidden(gr, name, errors.New("must have cluster-admin privileges to use the aggregationRule"))
	}
	if err := e.confirm(u, namespace, rules); err != nil {
		return apierrors.NewForbidden(gr, name, err)
	}
	return nil
}

// CheckBinding decides a write of a RoleBinding (resource "rolebindings",
// in namespace) or a ClusterRoleBinding ("clusterrolebindings", namespace
// "") that grants ref.
func (e *Escalation) CheckBinding(ctx context.Context, resource, namespace, name string, ref rbacv1.RoleRef) error {
	u := userFrom(ctx)
	if slices.Contains(u.Groups, SystemMasters) {
		return nil
	}
	// bind is checked in the binding's namespace (cluster-wide for a
	// ClusterRoleBinding), so a ClusterRole may be bindable in some
	// namespaces only.
	roleResource := "roles"
	if ref.Kind == "ClusterRole" {
		roleResource = "clusterroles"
	}
	if e.allowedVerb(ctx, u, "bind", roleResource, namespace, ref.Name) {
		return nil
	}
	gr := rbacv1.Resource(resource)
	p := e.policy.Load()
	if p == nil {
		return apierrors.NewForbidden(gr, name, errors.New("the RBAC policy is not loaded yet"))
	}
	var rules []rbacv1.PolicyRule
	var ok bool
	if src := e.roles.Load(); src != nil {
		var err error
		if rules, ok, err = (*src)(ctx, ref, namespace); err != nil {
			return apierrors.NewInternalError(err)
		}
	} else {
		rules, ok = p.RoleRefRules(ref, namespace)
	}
	if !ok {
		return apierrors.NewForbidden(gr, name, fmt.Errorf("%s %q not found", strings.ToLower(ref.Kind)+"."+rbacv1.GroupName, ref.Name))
	}
	if err := e.confirm(u, namespace, rules); err != nil {
		return apierrors.NewForbidden(gr, name, err)
	}
	return nil
}

// confirm checks that u holds every rule, as upstream words the refusal.
func (e *Escalation) confirm(u *authn.User, namespace string, rules []rbacv1.PolicyRule) error {
	p := e.policy.Load()
	if p == nil {
		return errors.New("the RBAC policy is not loaded yet")
	}
	own, incomplete := p.PolicyRules(u, namespace)
	ok, missing := Covers(own, rules)
	if ok {
		return nil
	}
	parts := make([]string, len(missing))
	for i := range missing {
		parts[i] = CompactString(&missing[i])
	}
	msg := fmt.Sprintf("user %q (groups=%q) is attempting to grant RBAC permissions not currently held:\n%s", u.Name, u.Groups, strings.Join(parts, "\n"))
	if incomplete {
		msg += "; some of the user's bindings refer to missing roles"
	}
	return errors.New(msg)
}

// CompactString prints a rule as upstream's messages do, e.g.
// {APIGroups:[""], Resources:["pods"], Verbs:["get"]}.
func CompactString(r *rbacv1.PolicyRule) string {
	var parts []string
	add := func(name string, v []string) {
		if len(v) == 0 {
			return
		}
		q := make([]string, len(v))
		for i, s := range v {
			q[i] = fmt.Sprintf("%q", s)
		}
		parts = append(parts, name+":["+strings.Join(q, " ")+"]")
	}
	add("APIGroups", r.APIGroups)
	add("Resources", r.Resources)
	add("ResourceNames", r.ResourceNames)
	add("NonResourceURLs", r.NonResourceURLs)
	add("Verbs", r.Verbs)
	return "{" + strings.Join(parts, ", ") + "}"
}
