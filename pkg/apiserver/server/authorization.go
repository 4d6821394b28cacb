package server

import (
	"context"
	"fmt"
	"net/http"
	"slices"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	"platform.io/platform/pkg/apiserver/authz"
	"platform.io/platform/pkg/apiserver/authz/rbac"
	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/component/authn"
)

// authorizerDeps are what a mode's constructor may use.
type authorizerDeps struct {
	lg       *zap.Logger
	opts     *options.Authorization
	registry prometheus.Registerer
	// store returns the store of a resource (nil when not served).
	store func(group, resource string) *registry.Store
	// rbac is the RBAC policy's authorizer, fed by the server's stores.
	rbac *rbac.Authorizer
}

// modeConstructor builds the authorizer of one --authorization-mode.
type modeConstructor func(d authorizerDeps) (authz.Authorizer, authz.RuleResolver, error)

// authorizationModes is the one table of the modes this server can build;
// a mode of options.AuthorizationModes that is not here fails at start.
func authorizationModes() map[string]modeConstructor {
	return map[string]modeConstructor{
		options.ModeAlwaysAllow: func(authorizerDeps) (authz.Authorizer, authz.RuleResolver, error) {
			return authz.AlwaysAllow{}, authz.AlwaysAllow{}, nil
		},
		options.ModeAlwaysDeny: func(authorizerDeps) (authz.Authorizer, authz.RuleResolver, error) {
			return authz.AlwaysDeny{}, authz.AlwaysDeny{}, nil
		},
		options.ModeRBAC: func(d authorizerDeps) (authz.Authorizer, authz.RuleResolver, error) {
			return d.rbac, d.rbac, nil
		},
		// ABAC, Webhook and Node register here, one line each.
	}
}

// buildAuthorizer returns the chain: members of system:masters first, as
// upstream, then the modes of --authorization-mode in order.
func (s *Server) buildAuthorizer() (authz.Union, authz.UnionRules, error) {
	table := authorizationModes()
	d := authorizerDeps{lg: s.lg.Named("authorization"), opts: s.opts.Authz, registry: s.registry, store: s.store}
	if s.rbac.policy != nil {
		d.rbac = s.rbac.policy.Authorizer
	}
	chain := authz.Union{privilegedGroup{}}
	rules := authz.UnionRules{privilegedGroup{}}
	for _, mode := range s.opts.Authz.Modes {
		build, ok := table[mode]
		if !ok {
			return nil, nil, fmt.Errorf("--authorization-mode: mode %q is not available in this server", mode)
		}
		z, r, err := build(d)
		if err != nil {
			return nil, nil, fmt.Errorf("--authorization-mode %s: %w", mode, err)
		}
		chain, rules = append(chain, z), append(rules, r)
	}
	return chain, rules, nil
}

// privilegedGroup allows every request of a member of system:masters,
// whatever the modes, as upstream's API server does.
type privilegedGroup struct{}

var (
	_ authz.Authorizer   = privilegedGroup{}
	_ authz.RuleResolver = privilegedGroup{}
)

func isPrivileged(u *authn.User) bool {
	return u != nil && slices.Contains(u.Groups, authn.SystemPrivilegedGroup)
}

// Authorize implements authz.Authorizer.
func (privilegedGroup) Authorize(_ context.Context, a authz.Attributes) (authz.Decision, string, error) {
	if isPrivileged(a.User) {
		return authz.Allow, "", nil
	}
	return authz.NoOpinion, "", nil
}

// RulesFor implements authz.RuleResolver: everything for a member.
func (privilegedGroup) RulesFor(ctx context.Context, u *authn.User, ns string) ([]authz.ResourceRule, []authz.NonResourceRule, bool, error) {
	if isPrivileged(u) {
		return authz.AlwaysAllow{}.RulesFor(ctx, u, ns)
	}
	return nil, nil, false, nil
}

// unsecuredUser is who requests on --insecure-port act as, as upstream's
// insecure port did: a member of system:masters, neither authenticated
// nor authorized.
func unsecuredUser() *authn.User {
	return &authn.User{Name: "system:unsecured", Groups: []string{authn.SystemPrivilegedGroup, authn.AllAuthenticated}}
}

// withUnsecuredUser serves h as unsecuredUser.
func withUnsecuredUser(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(authn.WithUser(r.Context(), unsecuredUser())))
	})
}
