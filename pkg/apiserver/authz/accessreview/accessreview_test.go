package accessreview

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"platform.io/platform/pkg/apiserver/authz"
	"platform.io/platform/pkg/component/authn"
)

// TestRoundTrip: attributes survive a trip through a v1 spec and a v1beta1
// spec and back.
func TestRoundTrip(t *testing.T) {
	u := &authn.User{Name: "alice", UID: "1", Groups: []string{"g"}, Extra: map[string][]string{"scopes": {"a", "b"}}}
	tests := []authz.Attributes{
		{User: u, Verb: "get", ResourceRequest: true, APIGroup: "apps", APIVersion: "v1", Resource: "deployments", Subresource: "scale", Namespace: "ns", Name: "d"},
		{User: u, Verb: "get", Path: "/metrics"},
		{User: &authn.User{Name: "bob"}, Verb: "list", ResourceRequest: true, Resource: "nodes"},
	}
	for _, a := range tests {
		spec := SpecFromV1beta1(SpecToV1beta1(Spec(a)))
		got := Attributes(User(&spec), spec.ResourceAttributes, spec.NonResourceAttributes)
		if d := cmp.Diff(a, got); d != "" {
			t.Errorf("(-want +got):\n%s", d)
		}
	}
}

func TestStatus(t *testing.T) {
	tests := []struct {
		d    authz.Decision
		err  error
		want authz.Decision
	}{
		{authz.Allow, nil, authz.Allow},
		{authz.Deny, nil, authz.Deny},
		{authz.NoOpinion, errors.New("boom"), authz.NoOpinion},
	}
	for _, tt := range tests {
		st := StatusFromV1beta1(StatusToV1beta1(Status(tt.d, "why", tt.err)))
		if got := Decision(st); got != tt.want || st.Reason != "why" || (tt.err != nil) != (st.EvaluationError != "") {
			t.Errorf("%v: %+v -> %v", tt.d, st, got)
		}
	}
}
