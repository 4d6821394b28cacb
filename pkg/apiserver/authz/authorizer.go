package authz

import (
	"context"

	"platform.io/platform/pkg/component/authn"
)

// Decision is an authorizer's answer.
type Decision int

// NoOpinion leaves the request to the next authorizer and is a denial when
// every authorizer answers it; Allow and Deny are final.
const (
	NoOpinion Decision = iota
	Allow
	Deny
)

func (d Decision) String() string {
	switch d {
	case Allow:
		return "Allow"
	case Deny:
		return "Deny"
	}
	return "NoOpinion"
}

// Attributes describe one request to authorize, as upstream's authorizers
// see it.
type Attributes struct {
	User *authn.User
	// Verb is get, list, watch, create, update, patch, delete,
	// deletecollection (or impersonate, bind, escalate, ...) for resource
	// requests, and the lowercased HTTP method for non-resource ones.
	Verb string
	// ResourceRequest tells which of the two groups of fields below is set.
	ResourceRequest bool

	APIGroup    string
	APIVersion  string
	Resource    string
	Subresource string
	Namespace   string
	Name        string

	// Path is the request path of a non-resource request.
	Path string
}

// Authorizer decides a request. The reason explains the decision for logs,
// and for a denial it is appended to the 403 message. An error with
// NoOpinion means the authorizer could not decide; the chain goes on.
type Authorizer interface {
	Authorize(ctx context.Context, a Attributes) (Decision, string, error)
}

// Func adapts a function to an Authorizer.
type Func func(ctx context.Context, a Attributes) (Decision, string, error)

var _ Authorizer = Func(nil)

// Authorize calls f.
func (f Func) Authorize(ctx context.Context, a Attributes) (Decision, string, error) {
	return f(ctx, a)
}

// ResourceRule is a permission on resources, in the shape of
// SelfSubjectRulesReview's resourceRules.
type ResourceRule struct {
	Verbs         []string
	APIGroups     []string
	Resources     []string
	ResourceNames []string
}

// NonResourceRule is a permission on non-resource paths.
type NonResourceRule struct {
	Verbs           []string
	NonResourceURLs []string
}

// RuleResolver lists what a user may do in a namespace ("" for cluster-wide
// rules only), for SelfSubjectRulesReview. Incomplete is true when some
// rules could not be listed (an authorizer that cannot enumerate, or an
// error, which is also returned).
type RuleResolver interface {
	RulesFor(ctx context.Context, u *authn.User, namespace string) (resource []ResourceRule, nonResource []NonResourceRule, incomplete bool, err error)
}
