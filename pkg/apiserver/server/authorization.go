package server

import (
	"context"
	"fmt"
	"net/http"
	"slices"

	"go.uber.org/zap"

	"platform.io/platform/pkg/apiserver/authz"
	"platform.io/platform/pkg/apiserver/authz/abac"
	"platform.io/platform/pkg/apiserver/authz/node"
	"platform.io/platform/pkg/apiserver/authz/rbac"
	"platform.io/platform/pkg/apiserver/authz/webhook"
	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/component/authn"
)

// authorizerDeps are what a mode's constructor may use.
type authorizerDeps struct {
	lg   *zap.Logger
	opts *options.Authorization
	// store returns the store of a resource (nil when not served).
	store func(group, resource string) *registry.Store
	// rbac is the RBAC policy's authorizer, fed by the server's stores.
	rbac *rbac.Authorizer
	// background registers work that runs with the server (Run), and
	// synced tells when it is ready: /readyz fails until then.
	background func(run func(ctx context.Context), synced func() bool)
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
			if d.rbac == nil {
				return nil, nil, fmt.Errorf("the RBAC policy is not built")
			}
			return d.rbac, d.rbac, nil
		},
		options.ModeABAC: func(d authorizerDeps) (authz.Authorizer, authz.RuleResolver, error) {
			a, err := abac.NewFromFile(d.opts.PolicyFile)
			return a, a, err
		},
		options.ModeWebhook: func(d authorizerDeps) (authz.Authorizer, authz.RuleResolver, error) {
			a, err := webhook.New(d.lg.Named("webhook"), webhook.Config{
				KubeconfigPath: d.opts.WebhookConfigFile, Version: d.opts.WebhookVersion,
				AllowTTL: d.opts.WebhookCacheAuthorizedTTL, DenyTTL: d.opts.WebhookCacheUnauthorizedTTL,
			})
			return a, a, err
		},
		options.ModeNode: func(d authorizerDeps) (authz.Authorizer, authz.RuleResolver, error) {
			src := node.NewStoreSource(d.lg.Named("node-graph"), d.store("", "pods"))
			a := node.New(d.lg.Named("node"), src)
			d.background(src.Run, src.HasSynced)
			return a, a, nil
		},
	}
}

// buildAuthorizer returns the chain: members of system:masters first, as
// upstream, then the modes of --authorization-mode in order.
func (s *Server) buildAuthorizer(table map[string]modeConstructor) (authz.Union, authz.UnionRules, error) {
	d := authorizerDeps{lg: s.lg.Named("authorization"), opts: s.opts.Authz, store: s.store,
		background: func(run func(context.Context), synced func() bool) {
			s.authzRunners = append(s.authzRunners, run)
			s.authzSynced = append(s.authzSynced, synced)
		}}
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

// authorizersSynced is the /readyz check of the modes' background work.
func (s *Server) authorizersSynced(context.Context) error {
	for _, synced := range s.authzSynced {
		if !synced() {
			return fmt.Errorf("authorization modes still loading")
		}
	}
	return nil
}

// lateAuthorizer answers with the chain once it is built: the review APIs'
// stores are made before the chain, whose modes read other stores.
type lateAuthorizer struct {
	s *Server
}

var (
	_ authz.Authorizer   = lateAuthorizer{}
	_ authz.RuleResolver = lateAuthorizer{}
)

// Authorize implements authz.Authorizer.
func (l lateAuthorizer) Authorize(ctx context.Context, a authz.Attributes) (authz.Decision, string, error) {
	if l.s.authorizer == nil {
		return authz.NoOpinion, "", fmt.Errorf("authorization chain not built")
	}
	return l.s.authorizer.Authorize(ctx, a)
}

// RulesFor implements authz.RuleResolver.
func (l lateAuthorizer) RulesFor(ctx context.Context, u *authn.User, ns string) ([]authz.ResourceRule, []authz.NonResourceRule, bool, error) {
	if l.s.rules == nil {
		return nil, nil, true, fmt.Errorf("authorization chain not built")
	}
	return l.s.rules.RulesFor(ctx, u, ns)
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
