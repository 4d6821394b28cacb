package server

import (
	"fmt"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	"platform.io/platform/pkg/apiserver/authz"
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
		// ABAC, Webhook, RBAC and Node register here, one line each.
	}
}

// buildAuthorizer returns the chain of --authorization-mode, in order.
func (s *Server) buildAuthorizer() (authz.Union, authz.UnionRules, error) {
	table := authorizationModes()
	d := authorizerDeps{lg: s.lg.Named("authorization"), opts: s.opts.Authz, registry: s.registry, store: s.store}
	var chain authz.Union
	var rules authz.UnionRules
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
