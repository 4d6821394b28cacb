package server

// This file is the RBAC part of the server: the policy's index and
// aggregation run with the server, the bootstrap policy is reconciled once
// storage is ready, and /readyz waits for both. Mode RBAC is built from
// the policy in authorization.go, and buildChain points the escalation
// checks of the rbac group at the whole authorization chain.

import (
	"context"
	"errors"
	"fmt"

	rbacv1 "platform.io/client/api/rbac/v1"
	"platform.io/platform/pkg/apiserver/authz"
	"platform.io/platform/pkg/apiserver/authz/rbac"
	"platform.io/platform/pkg/apiserver/authz/rbac/bootstrap"
)

// rbacState is the server's RBAC policy and the escalation checks of the
// rbac group's stores.
type rbacState struct {
	escalation *rbac.Escalation
	policy     *rbac.Policy
}

// buildRBAC builds the policy over the rbac stores; call it after
// buildStores.
func (s *Server) buildRBAC() {
	s.rbac.policy = rbac.New(s.lg.Named("rbac"), s.rbacStores())
	s.rbac.escalation.SetPolicy(s.rbac.policy.Authorizer)
	s.rbac.escalation.SetRoleSource(s.rbac.policy.StoredRoleRefRules)
	s.rbac.escalation.SetAuthorizer(authz.AlwaysAllow{})
}

// reconcileRBAC reconciles the bootstrap policy once the system namespaces
// exist (namespacesReady closes then).
func (s *Server) reconcileRBAC(ctx context.Context, namespacesReady <-chan struct{}) error {
	select {
	case <-ctx.Done():
		return nil
	case <-namespacesReady:
	}
	if err := bootstrap.Reconcile(ctx, s.lg.Named("rbac-bootstrap"), s.rbacStores(), bootstrap.Default()); err != nil {
		return fmt.Errorf("reconcile the bootstrap RBAC policy: %w", err)
	}
	s.rbacBootstrapped.Store(true)
	return nil
}

func (s *Server) rbacStores() rbac.Stores {
	return rbac.Stores{
		Roles:               s.store(rbacv1.GroupName, "roles"),
		ClusterRoles:        s.store(rbacv1.GroupName, "clusterroles"),
		RoleBindings:        s.store(rbacv1.GroupName, "rolebindings"),
		ClusterRoleBindings: s.store(rbacv1.GroupName, "clusterrolebindings"),
	}
}

// rbacReady is the /readyz check: the bootstrap policy is reconciled and
// the policy index has listed every kind.
func (s *Server) rbacReady(context.Context) error {
	if !s.rbacBootstrapped.Load() || !s.rbac.policy.HasSynced() {
		return errors.New("RBAC bootstrap policy not reconciled or policy index not synced")
	}
	return nil
}

// RBAC returns the RBAC authorizer (mode RBAC), which also resolves rules
// for SelfSubjectRulesReview.
func (s *Server) RBAC() *rbac.Policy { return s.rbac.policy }

// SetEscalationAuthorizer sets the authorization chain the rbac group asks
// whether a user may escalate or bind a role; the authorization wiring
// calls it with the chain of --authorization-mode.
func (s *Server) SetEscalationAuthorizer(z authz.Authorizer) { s.rbac.escalation.SetAuthorizer(z) }
