package node

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"go.uber.org/zap"

	"platform.io/platform/pkg/apiserver/authz"
	"platform.io/platform/pkg/component/authn"
)

// Identity of nodes, and the namespace of their leases.
const (
	NodesGroup         = "system:nodes"
	NodeUserPrefix     = "system:node:"
	NodeLeaseNamespace = "platform-node-lease"
	coordinationGroup  = "coordination.platform.io"
	eventsGroup        = "events.platform.io"
)

// Authorizer is the Node mode.
type Authorizer struct {
	lg    *zap.Logger
	graph *Graph
}

var (
	_ authz.Authorizer   = (*Authorizer)(nil)
	_ authz.RuleResolver = (*Authorizer)(nil)
)

// ErrNoRules is RulesFor's error for a node: its rights follow the graph
// and are not listed as rules.
var ErrNoRules = errors.New("node authorizer does not support user rule resolution")

// RulesFor implements authz.RuleResolver: nothing for anyone; for a node
// the list is incomplete, as upstream's.
func (a *Authorizer) RulesFor(_ context.Context, u *authn.User, _ string) ([]authz.ResourceRule, []authz.NonResourceRule, bool, error) {
	if _, ok := NodeName(u); ok {
		return nil, nil, true, ErrNoRules
	}
	return nil, nil, false, nil
}

// New returns the mode, its graph fed by src.
func New(lg *zap.Logger, src PodSource) *Authorizer {
	g := NewGraph()
	src.AddPodHandler(g)
	return &Authorizer{lg: lg, graph: g}
}

// NodeName returns the node u is, and false when u is not a node.
func NodeName(u *authn.User) (string, bool) {
	if u == nil || !slices.Contains(u.Groups, NodesGroup) {
		return "", false
	}
	name, ok := strings.CutPrefix(u.Name, NodeUserPrefix)
	return name, ok && name != ""
}

// Authorize implements authz.Authorizer.
func (a *Authorizer) Authorize(_ context.Context, at authz.Attributes) (authz.Decision, string, error) {
	node, ok := NodeName(at.User)
	if !ok || !at.ResourceRequest {
		return authz.NoOpinion, "", nil
	}
	switch {
	case at.APIGroup == "" && at.Resource == "pods":
		return a.pod(node, at)
	case at.APIGroup == "" && at.Resource == "nodes":
		return ownNode(node, at)
	case at.APIGroup == "" && at.Resource == "serviceaccounts" && at.Subresource == "token":
		if at.Verb != "create" {
			return authz.NoOpinion, "can only create tokens for individual service accounts", nil
		}
		return a.reached(node, ServiceAccount, at)
	case at.APIGroup == "" && (at.Resource == "secrets" || at.Resource == "configmaps" ||
		at.Resource == "persistentvolumeclaims" || at.Resource == "serviceaccounts"):
		return a.read(node, Kind(at.Resource), at)
	case at.APIGroup == coordinationGroup && at.Resource == "leases":
		return ownLease(node, at)
	case (at.APIGroup == "" || at.APIGroup == eventsGroup) && at.Resource == "events":
		if at.Verb == "create" || at.Verb == "update" || at.Verb == "patch" {
			return authz.Allow, "", nil
		}
	}
	return authz.NoOpinion, "", nil
}

func readVerb(verb string) bool { return verb == "get" || verb == "list" || verb == "watch" }

// read allows reading one named object a bound pod references.
func (a *Authorizer) read(node string, kind Kind, at authz.Attributes) (authz.Decision, string, error) {
	if !readVerb(at.Verb) {
		return authz.NoOpinion, "can only read resources of this type", nil
	}
	if at.Subresource != "" {
		return authz.NoOpinion, "cannot read subresource", nil
	}
	return a.reached(node, kind, at)
}

// reached allows a request on one named object the node reaches.
func (a *Authorizer) reached(node string, kind Kind, at authz.Attributes) (authz.Decision, string, error) {
	if at.Namespace == "" || at.Name == "" {
		return authz.NoOpinion, "can only access individual namespaced objects of this type", nil
	}
	if !a.graph.Reaches(node, kind, at.Namespace, at.Name) {
		a.lg.Debug("no path from node to object", zap.String("node", node), zap.String("resource", string(kind)),
			zap.String("namespace", at.Namespace), zap.String("name", at.Name))
		return authz.NoOpinion, fmt.Sprintf("no relationship found between node '%s' and this object", node), nil
	}
	return authz.Allow, "", nil
}

// pod allows reading and deleting the node's pods, writing their status
// and evicting them.
func (a *Authorizer) pod(node string, at authz.Attributes) (authz.Decision, string, error) {
	ok := false
	switch at.Subresource {
	case "":
		ok = readVerb(at.Verb) || at.Verb == "delete"
	case "status":
		ok = at.Verb == "get" || at.Verb == "update" || at.Verb == "patch"
	case "eviction":
		ok = at.Verb == "create"
	}
	if !ok {
		return authz.NoOpinion, "", nil
	}
	return a.reached(node, Pod, at)
}

// ownNode allows reading and writing the node's own Node and its status.
// A create names no object in its attributes, so it is left to RBAC.
func ownNode(node string, at authz.Attributes) (authz.Decision, string, error) {
	if at.Name != node {
		return authz.NoOpinion, "", nil
	}
	switch at.Subresource {
	case "":
		if readVerb(at.Verb) || at.Verb == "update" || at.Verb == "patch" {
			return authz.Allow, "", nil
		}
	case "status":
		if at.Verb == "get" || at.Verb == "update" || at.Verb == "patch" {
			return authz.Allow, "", nil
		}
	}
	return authz.NoOpinion, "", nil
}

// ownLease allows the node's heartbeat Lease, as upstream: any verb but
// list, watch and deletecollection on the lease of its own name in
// platform-node-lease, and create there (a create names no object).
func ownLease(node string, at authz.Attributes) (authz.Decision, string, error) {
	if at.Namespace != NodeLeaseNamespace || at.Subresource != "" {
		return authz.NoOpinion, fmt.Sprintf("can only access leases in the %s namespace", NodeLeaseNamespace), nil
	}
	switch at.Verb {
	case "create":
		return authz.Allow, "", nil
	case "get", "update", "patch", "delete":
		if at.Name == node {
			return authz.Allow, "", nil
		}
		return authz.NoOpinion, "can only access node lease with the same name as the requesting node", nil
	}
	return authz.NoOpinion, "", nil
}
