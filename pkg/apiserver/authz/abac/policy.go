package abac

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// APIVersion and Kind are what every policy line must declare.
const (
	APIVersion = "abac.authorization.platform.io/v1beta1"
	Kind       = "Policy"
)

// ErrPolicy marks a policy line that cannot be used.
var ErrPolicy = errors.New("abac: invalid policy")

// Policy is one line of the policy file.
type Policy struct {
	APIVersion string     `json:"apiVersion"`
	Kind       string     `json:"kind"`
	Spec       PolicySpec `json:"spec"`
}

// PolicySpec says who may do what. "*" in a string field matches anything;
// an empty User and Group match nobody, an empty Namespace only
// cluster-scoped requests, an empty APIGroup only the core group.
type PolicySpec struct {
	User  string `json:"user,omitempty"`
	Group string `json:"group,omitempty"`
	// Readonly limits the policy to get, list and watch.
	Readonly  bool   `json:"readonly,omitempty"`
	APIGroup  string `json:"apiGroup,omitempty"`
	Resource  string `json:"resource,omitempty"`
	Namespace string `json:"namespace,omitempty"`
	// NonResourcePath is a path ("/version"), "*" for all, or a prefix
	// ending in "*" ("/apis/*").
	NonResourcePath string `json:"nonResourcePath,omitempty"`
}

// ParseLine decodes one policy line. Unknown fields are refused, so a
// misspelt field cannot silently widen or narrow a policy.
func ParseLine(line []byte) (Policy, error) {
	var p Policy
	d := json.NewDecoder(bytes.NewReader(line))
	d.DisallowUnknownFields()
	if err := d.Decode(&p); err != nil {
		return Policy{}, fmt.Errorf("%w: %w", ErrPolicy, err)
	}
	if d.More() {
		return Policy{}, fmt.Errorf("%w: more than one JSON value on the line", ErrPolicy)
	}
	if p.APIVersion != APIVersion {
		return Policy{}, fmt.Errorf("%w: apiVersion %q, want %q (unversioned policies are not supported)", ErrPolicy, p.APIVersion, APIVersion)
	}
	if p.Kind != Kind {
		return Policy{}, fmt.Errorf("%w: kind %q, want %q", ErrPolicy, p.Kind, Kind)
	}
	if p.Spec.User == "" && p.Spec.Group == "" {
		return Policy{}, fmt.Errorf("%w: spec names neither user nor group, so it matches nobody", ErrPolicy)
	}
	return p, nil
}
