package abac

import (
	"context"
	"testing"

	"platform.io/platform/pkg/apiserver/authz"
	"platform.io/platform/pkg/component/authn"
)

// FuzzParseLine: no line makes the parser panic, and a line it accepts
// always names a subject and authorizes without error.
func FuzzParseLine(f *testing.F) {
	f.Add([]byte(`{"apiVersion":"abac.authorization.platform.io/v1beta1","kind":"Policy","spec":{"user":"a","resource":"*"}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		p, err := ParseLine(line)
		if err != nil {
			return
		}
		if p.Spec.User == "" && p.Spec.Group == "" {
			t.Fatalf("accepted a policy with no subject: %q", line)
		}
		a := &Authorizer{policies: []Policy{p}}
		u := &authn.User{Name: p.Spec.User, Groups: []string{p.Spec.Group}}
		if _, _, err := a.Authorize(context.Background(), authz.Attributes{User: u, Verb: "get", Path: "/"}); err != nil {
			t.Fatal(err)
		}
	})
}
