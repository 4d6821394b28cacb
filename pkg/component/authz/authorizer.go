package authz

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"go.uber.org/zap"

	authzv1 "platform.io/client/api/authorization/v1"

	"platform.io/platform/pkg/component/authn"
)

// Decision is an authorizer's answer.
type Decision int

// The answers: NoOpinion leaves the request to the next authorizer, and is
// a denial when it is the last one's.
const (
	NoOpinion Decision = iota
	Allow
	Deny
)

// Attributes describe a request to authorize.
type Attributes struct {
	User *authn.User
	Verb string
	Path string
	// Resource, when set, makes the request one to an API resource: it is
	// reviewed with these resourceAttributes instead of the path, and the
	// always-allowed paths do not apply. Verb is then its verb.
	Resource *authzv1.ResourceAttributes
}

// Authorizer decides whether a request may proceed, with a reason for
// logs and denials.
type Authorizer interface {
	Authorize(ctx context.Context, a Attributes) (Decision, string, error)
}

// Config is what the delegating authorizer allows.
type Config struct {
	// AlwaysAllowPaths are never checked; "/x/*" allows every path under /x/.
	AlwaysAllowPaths []string
	// AlwaysAllowGroups are users never checked.
	AlwaysAllowGroups []string
	// Reviewer answers everything else; nil denies everything else.
	Reviewer AccessReviewer
	// AllowTTL and DenyTTL are how long allowed and denied answers are kept.
	AllowTTL, DenyTTL time.Duration
	// Now reads the time for the cache; nil means time.Now.
	Now func() time.Time
}

// union asks each authorizer in turn until one has an opinion.
type union []Authorizer

// New returns the authorizer cfg describes.
func New(lg *zap.Logger, cfg Config) (Authorizer, error) {
	paths, err := newPaths(cfg.AlwaysAllowPaths)
	if err != nil {
		return nil, err
	}
	u := union{paths, groups(cfg.AlwaysAllowGroups)}
	if cfg.Reviewer != nil {
		u = append(u, newReviewCache(lg, cfg.Reviewer, cfg.AllowTTL, cfg.DenyTTL, cfg.Now))
	}
	return u, nil
}

// Authorize implements Authorizer.
func (u union) Authorize(ctx context.Context, a Attributes) (Decision, string, error) {
	var reasons []string
	for _, az := range u {
		d, reason, err := az.Authorize(ctx, a)
		if err != nil {
			return NoOpinion, reason, err
		}
		if reason != "" {
			reasons = append(reasons, reason)
		}
		if d != NoOpinion {
			return d, strings.Join(reasons, "; "), nil
		}
	}
	return NoOpinion, strings.Join(reasons, "; "), nil
}

// paths allows fixed paths and path prefixes.
type paths struct {
	exact    map[string]bool
	prefixes []string
}

func newPaths(list []string) (*paths, error) {
	p := &paths{exact: map[string]bool{}}
	for _, s := range list {
		if err := ValidatePath(s); err != nil {
			return nil, err
		}
		if prefix, ok := strings.CutSuffix(s, "*"); ok {
			p.prefixes = append(p.prefixes, prefix)
		} else {
			p.exact[s] = true
		}
	}
	return p, nil
}

// ValidatePath reports whether s can be an always-allowed path: it starts
// with "/" and holds no "*" but a trailing one.
func ValidatePath(s string) error {
	if !strings.HasPrefix(s, "/") {
		return fmt.Errorf("path %q does not start with /", s)
	}
	if i := strings.Index(s, "*"); i >= 0 && i != len(s)-1 {
		return fmt.Errorf("path %q: only a trailing * is allowed", s)
	}
	return nil
}

// Authorize implements Authorizer.
func (p *paths) Authorize(_ context.Context, a Attributes) (Decision, string, error) {
	if a.Resource != nil {
		return NoOpinion, "", nil
	}
	if p.exact[a.Path] {
		return Allow, "", nil
	}
	for _, prefix := range p.prefixes {
		if strings.HasPrefix(a.Path, prefix) {
			return Allow, "", nil
		}
	}
	return NoOpinion, "", nil
}

// groups allows the members of some groups.
type groups []string

// Authorize implements Authorizer.
func (g groups) Authorize(_ context.Context, a Attributes) (Decision, string, error) {
	if a.User == nil {
		return NoOpinion, "", nil
	}
	for _, grp := range a.User.Groups {
		if slices.Contains(g, grp) {
			return Allow, "", nil
		}
	}
	return NoOpinion, "", nil
}
