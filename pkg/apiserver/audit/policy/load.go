package policy

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"sigs.k8s.io/yaml"

	auditv1 "platform.io/client/api/audit/v1"
)

// ErrInvalid wraps every reason a policy is refused.
var ErrInvalid = errors.New("invalid audit policy")

// LoadFile reads and checks the policy in path.
func LoadFile(path string) (*auditv1.Policy, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("audit policy: %w", err)
	}
	p, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// Parse reads a policy from YAML or JSON and checks it. Unknown fields are
// refused, as a misspelt field would otherwise silently widen a rule.
func Parse(b []byte) (*auditv1.Policy, error) {
	var p auditv1.Policy
	if err := yaml.UnmarshalStrict(b, &p); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if err := Validate(&p); err != nil {
		return nil, err
	}
	return &p, nil
}

// Validate checks the kind, version, levels, stages and that each rule
// asks for either resources or non-resource URLs, not both.
func Validate(p *auditv1.Policy) error {
	var errs []string
	if p.Kind != "Policy" {
		errs = append(errs, fmt.Sprintf("kind %q is not Policy", p.Kind))
	}
	if !auditv1.KnownGroupVersion(p.APIVersion) {
		errs = append(errs, fmt.Sprintf("apiVersion %q is neither %s nor %s", p.APIVersion, auditv1.SchemeGroupVersion, auditv1.UpstreamGroupVersion))
	}
	errs = append(errs, stageErrors("omitStages", p.OmitStages)...)
	for i, r := range p.Rules {
		field := fmt.Sprintf("rules[%d]", i)
		if !r.Level.Valid() {
			errs = append(errs, fmt.Sprintf("%s.level: %q is not one of None, Metadata, Request, RequestResponse", field, r.Level))
		}
		errs = append(errs, stageErrors(field+".omitStages", r.OmitStages)...)
		if len(r.NonResourceURLs) > 0 && (len(r.Resources) > 0 || len(r.Namespaces) > 0) {
			errs = append(errs, field+": nonResourceURLs cannot be combined with resources or namespaces")
		}
		for _, u := range r.NonResourceURLs {
			if !strings.HasPrefix(u, "/") && u != "*" {
				errs = append(errs, fmt.Sprintf("%s.nonResourceURLs: %q must start with /", field, u))
			}
			if i := strings.Index(u, "*"); i >= 0 && i != len(u)-1 {
				errs = append(errs, fmt.Sprintf("%s.nonResourceURLs: %q may have * only at its end", field, u))
			}
		}
		for j, gr := range r.Resources {
			if len(gr.ResourceNames) > 0 && len(gr.Resources) == 0 {
				errs = append(errs, fmt.Sprintf("%s.resources[%d]: resourceNames require resources", field, j))
			}
			for _, res := range gr.Resources {
				if strings.Count(res, "/") > 1 || (strings.HasPrefix(res, "*") && res != "*" && !strings.HasPrefix(res, "*/")) {
					errs = append(errs, fmt.Sprintf("%s.resources[%d]: %q is not a resource, resource/subresource, */subresource or resource/*", field, j, res))
				}
			}
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%w: %s", ErrInvalid, strings.Join(errs, "; "))
	}
	return nil
}

func stageErrors(field string, stages []auditv1.Stage) []string {
	var errs []string
	for _, s := range stages {
		if !s.Valid() {
			errs = append(errs, fmt.Sprintf("%s: %q is not one of RequestReceived, ResponseStarted, ResponseComplete, Panic", field, s))
		}
	}
	return errs
}
