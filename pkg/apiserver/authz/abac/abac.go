package abac

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"platform.io/platform/pkg/apiserver/authz"
	"platform.io/platform/pkg/component/authn"
)

// Authorizer allows what its policies grant.
type Authorizer struct {
	policies []Policy
}

var (
	_ authz.Authorizer   = (*Authorizer)(nil)
	_ authz.RuleResolver = (*Authorizer)(nil)
)

// NewFromFile reads the policy file at path. The same value is both the
// mode's Authorizer and its RuleResolver.
func NewFromFile(path string) (*Authorizer, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("abac: %w", err)
	}
	defer f.Close()
	a, err := Load(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return a, nil
}

// Load reads policies, one per line; blank lines and lines starting with
// "#" are skipped.
func Load(r io.Reader) (*Authorizer, error) {
	a := &Authorizer{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		p, err := ParseLine(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		a.policies = append(a.policies, p)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("abac: reading policies: %w", err)
	}
	return a, nil
}

// Len returns the number of policies loaded.
func (a *Authorizer) Len() int { return len(a.policies) }

// Authorize implements authz.Authorizer: Allow when a policy matches,
// NoOpinion otherwise.
func (a *Authorizer) Authorize(_ context.Context, attrs authz.Attributes) (authz.Decision, string, error) {
	for _, p := range a.policies {
		if matches(p.Spec, attrs) {
			return authz.Allow, "", nil
		}
	}
	return authz.NoOpinion, "No policy matched.", nil
}

// RulesFor implements authz.RuleResolver: the policies of u that apply in
// namespace (or in every namespace), as rules.
func (a *Authorizer) RulesFor(_ context.Context, u *authn.User, namespace string) ([]authz.ResourceRule, []authz.NonResourceRule, bool, error) {
	var rr []authz.ResourceRule
	var nr []authz.NonResourceRule
	for _, p := range a.policies {
		s := p.Spec
		if !subjectMatches(s, u) {
			continue
		}
		verbs := []string{"*"}
		if s.Readonly {
			verbs = []string{"get", "list", "watch"}
		}
		if s.Resource != "" && (s.Namespace == "*" || s.Namespace == namespace) {
			rr = append(rr, authz.ResourceRule{Verbs: verbs, APIGroups: []string{s.APIGroup}, Resources: []string{s.Resource}})
		}
		if s.NonResourcePath != "" {
			nr = append(nr, authz.NonResourceRule{Verbs: verbs, NonResourceURLs: []string{s.NonResourcePath}})
		}
	}
	return rr, nr, false, nil
}

func matches(s PolicySpec, a authz.Attributes) bool {
	if !subjectMatches(s, a.User) || !verbMatches(s, a.Verb) {
		return false
	}
	if a.ResourceRequest {
		return wild(s.Namespace, a.Namespace) && wild(s.Resource, a.Resource) && wild(s.APIGroup, a.APIGroup)
	}
	return pathMatches(s.NonResourcePath, a.Path)
}

// subjectMatches: every subject field set must match, and one must be set.
func subjectMatches(s PolicySpec, u *authn.User) bool {
	if u == nil {
		return false
	}
	if s.User != "" && s.User != "*" && s.User != u.Name {
		return false
	}
	if s.Group != "" && s.Group != "*" && !slices.Contains(u.Groups, s.Group) {
		return false
	}
	return s.User != "" || s.Group != ""
}

func verbMatches(s PolicySpec, verb string) bool {
	return !s.Readonly || verb == "get" || verb == "list" || verb == "watch"
}

func wild(policy, value string) bool { return policy == "*" || policy == value }

// pathMatches: "*" matches every path, "/x/*" every path starting with
// "/x/", anything else only itself. An empty policy path matches nothing.
func pathMatches(policy, path string) bool {
	if policy == "" {
		return false
	}
	if policy == "*" || policy == path {
		return true
	}
	return strings.HasSuffix(policy, "*") && strings.HasPrefix(path, strings.TrimRight(policy, "*"))
}
