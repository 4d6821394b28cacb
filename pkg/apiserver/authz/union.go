package authz

import (
	"context"
	"errors"
	"strings"

	"platform.io/platform/pkg/component/authn"
)

// Union asks each authorizer in order; the first Allow or Deny wins. When
// all answer NoOpinion the errors they returned are joined.
type Union []Authorizer

var _ Authorizer = Union(nil)

// Authorize implements Authorizer.
func (u Union) Authorize(ctx context.Context, a Attributes) (Decision, string, error) {
	var errs []error
	var reasons []string
	for _, z := range u {
		d, reason, err := z.Authorize(ctx, a)
		if err != nil {
			errs = append(errs, err)
		}
		if d != NoOpinion {
			return d, reason, nil
		}
		if reason != "" {
			reasons = append(reasons, reason)
		}
	}
	return NoOpinion, strings.Join(reasons, ", "), errors.Join(errs...)
}

// UnionRules lists the rules of every resolver; the result is incomplete if
// any part is.
type UnionRules []RuleResolver

var _ RuleResolver = UnionRules(nil)

// RulesFor implements RuleResolver.
func (u UnionRules) RulesFor(ctx context.Context, user *authn.User, ns string) ([]ResourceRule, []NonResourceRule, bool, error) {
	var rr []ResourceRule
	var nr []NonResourceRule
	var errs []error
	incomplete := false
	for _, r := range u {
		a, b, inc, err := r.RulesFor(ctx, user, ns)
		rr, nr = append(rr, a...), append(nr, b...)
		incomplete = incomplete || inc
		if err != nil {
			errs = append(errs, err)
		}
	}
	return rr, nr, incomplete, errors.Join(errs...)
}

// AlwaysAllow allows every request (mode AlwaysAllow).
type AlwaysAllow struct{}

// Authorize implements Authorizer.
func (AlwaysAllow) Authorize(context.Context, Attributes) (Decision, string, error) {
	return Allow, "", nil
}

// RulesFor implements RuleResolver: everything.
func (AlwaysAllow) RulesFor(context.Context, *authn.User, string) ([]ResourceRule, []NonResourceRule, bool, error) {
	return []ResourceRule{{Verbs: []string{"*"}, APIGroups: []string{"*"}, Resources: []string{"*"}}},
		[]NonResourceRule{{Verbs: []string{"*"}, NonResourceURLs: []string{"*"}}}, false, nil
}

// AlwaysDeny denies every request (mode AlwaysDeny).
type AlwaysDeny struct{}

// Authorize implements Authorizer.
func (AlwaysDeny) Authorize(context.Context, Attributes) (Decision, string, error) {
	return Deny, "Everything is forbidden.", nil
}

// RulesFor implements RuleResolver: nothing.
func (AlwaysDeny) RulesFor(context.Context, *authn.User, string) ([]ResourceRule, []NonResourceRule, bool, error) {
	return nil, nil, false, nil
}
