package abac

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"platform.io/platform/pkg/apiserver/authz"
	"platform.io/platform/pkg/component/authn"
)

const policyFile = `# operators
{"apiVersion":"abac.authorization.platform.io/v1beta1","kind":"Policy","spec":{"user":"admin","namespace":"*","resource":"*","apiGroup":"*","nonResourcePath":"*"}}

{"apiVersion":"abac.authorization.platform.io/v1beta1","kind":"Policy","spec":{"user":"alice","namespace":"projectCaribou","resource":"*","apiGroup":"*"}}
{"apiVersion":"abac.authorization.platform.io/v1beta1","kind":"Policy","spec":{"user":"bob","namespace":"projectCaribou","resource":"pods","readonly":true}}
{"apiVersion":"abac.authorization.platform.io/v1beta1","kind":"Policy","spec":{"group":"system:authenticated","readonly":true,"nonResourcePath":"/apis/*"}}
{"apiVersion":"abac.authorization.platform.io/v1beta1","kind":"Policy","spec":{"group":"system:unauthenticated","readonly":true,"nonResourcePath":"/version"}}
{"apiVersion":"abac.authorization.platform.io/v1beta1","kind":"Policy","spec":{"user":"*","readonly":true,"apiGroup":"apps","resource":"deployments","namespace":"shared"}}
{"apiVersion":"abac.authorization.platform.io/v1beta1","kind":"Policy","spec":{"user":"carol","group":"ops","resource":"nodes"}}
`

func load(t *testing.T) *Authorizer {
	t.Helper()
	a, err := Load(strings.NewReader(policyFile))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func res(u *authn.User, verb, group, resource, ns string) authz.Attributes {
	return authz.Attributes{User: u, Verb: verb, ResourceRequest: true, APIGroup: group, Resource: resource, Namespace: ns}
}

func path(u *authn.User, verb, p string) authz.Attributes {
	return authz.Attributes{User: u, Verb: verb, Path: p}
}

func TestAuthorize(t *testing.T) {
	a := load(t)
	if a.Len() != 7 {
		t.Fatalf("loaded %d policies, want 7", a.Len())
	}
	admin := &authn.User{Name: "admin"}
	alice := &authn.User{Name: "alice", Groups: []string{"system:authenticated"}}
	bob := &authn.User{Name: "bob"}
	carol := &authn.User{Name: "carol", Groups: []string{"ops"}}
	carolNoOps := &authn.User{Name: "carol"}
	anon := authn.AnonymousUser()
	tests := []struct {
		name string
		a    authz.Attributes
		want authz.Decision
	}{
		{"admin anything", res(admin, "delete", "apps", "deployments", "x"), authz.Allow},
		{"admin cluster scope", res(admin, "create", "", "nodes", ""), authz.Allow},
		{"admin path", path(admin, "post", "/anything"), authz.Allow},
		{"alice in her namespace", res(alice, "create", "batch", "jobs", "projectCaribou"), authz.Allow},
		{"alice elsewhere", res(alice, "get", "", "pods", "other"), authz.NoOpinion},
		{"alice cluster scope", res(alice, "list", "", "nodes", ""), authz.NoOpinion},
		{"bob reads pods", res(bob, "get", "", "pods", "projectCaribou"), authz.Allow},
		{"bob lists pods", res(bob, "list", "", "pods", "projectCaribou"), authz.Allow},
		{"bob watches pods", res(bob, "watch", "", "pods", "projectCaribou"), authz.Allow},
		{"bob may not write", res(bob, "create", "", "pods", "projectCaribou"), authz.NoOpinion},
		{"bob empty apiGroup is core only", res(bob, "get", "apps", "pods", "projectCaribou"), authz.NoOpinion},
		{"bob other resource", res(bob, "get", "", "secrets", "projectCaribou"), authz.NoOpinion},
		{"group prefix path", path(alice, "get", "/apis/apps/v1"), authz.Allow},
		{"group prefix path not below", path(alice, "get", "/api/v1"), authz.NoOpinion},
		{"group readonly path", path(alice, "post", "/apis/apps"), authz.NoOpinion},
		{"resource policy does not grant paths", path(bob, "get", "/apis"), authz.NoOpinion},
		{"anonymous version", path(anon, "get", "/version"), authz.Allow},
		{"anonymous exact path only", path(anon, "get", "/version/x"), authz.NoOpinion},
		{"star user", res(anon, "get", "apps", "deployments", "shared"), authz.Allow},
		{"star user readonly", res(anon, "delete", "apps", "deployments", "shared"), authz.NoOpinion},
		{"user and group both needed", res(carol, "update", "", "nodes", ""), authz.Allow},
		{"user without the group", res(carolNoOps, "update", "", "nodes", ""), authz.NoOpinion},
		{"no user", res(nil, "get", "apps", "deployments", "shared"), authz.NoOpinion},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, reason, err := a.Authorize(context.Background(), tt.a)
			if err != nil || got != tt.want {
				t.Fatalf("got %v (%q, %v), want %v", got, reason, err, tt.want)
			}
		})
	}
}

func TestLoadErrors(t *testing.T) {
	good := `{"apiVersion":"abac.authorization.platform.io/v1beta1","kind":"Policy","spec":{"user":"a"}}`
	tests := []struct {
		name, file, want string
	}{
		{"not json", good + "\n\n{nope\n", "line 3:"},
		{"unversioned", "# c\n" + `{"user":"a","readonly":true}`, "line 2:"},
		{"wrong version", `{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"a"}}`, "line 1: abac: invalid policy: apiVersion"},
		{"wrong kind", `{"apiVersion":"abac.authorization.platform.io/v1beta1","kind":"Role","spec":{"user":"a"}}`, "line 1: abac: invalid policy: kind"},
		{"unknown field", good + "\n" + `{"apiVersion":"abac.authorization.platform.io/v1beta1","kind":"Policy","spec":{"user":"a","namepsace":"x"}}`, "line 2:"},
		{"no subject", good + "\n" + good + "\n" + `{"apiVersion":"abac.authorization.platform.io/v1beta1","kind":"Policy","spec":{"resource":"pods"}}`, "line 3:"},
		{"two values", good + good, "line 1:"},
		{"wrong type", `{"apiVersion":"abac.authorization.platform.io/v1beta1","kind":"Policy","spec":{"user":"a","readonly":"yes"}}`, "line 1:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(strings.NewReader(tt.file))
			if err == nil || !strings.Contains(err.Error(), tt.want) || !errors.Is(err, ErrPolicy) {
				t.Fatalf("err = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestNewFromFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "policy.jsonl")
	if err := os.WriteFile(p, []byte(policyFile), 0o600); err != nil {
		t.Fatal(err)
	}
	a, err := NewFromFile(p)
	if err != nil || a.Len() != 7 {
		t.Fatalf("NewFromFile = %v, %v", a, err)
	}
	if err := os.WriteFile(p, []byte("\n{bad"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := NewFromFile(p); err == nil || !strings.Contains(err.Error(), p+": line 2:") {
		t.Fatalf("err = %v", err)
	}
	if _, err := NewFromFile(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Fatal("a missing file loaded")
	}
}

func TestRulesFor(t *testing.T) {
	a := load(t)
	bob := &authn.User{Name: "bob", Groups: []string{"system:authenticated"}}
	rr, nr, incomplete, err := a.RulesFor(context.Background(), bob, "projectCaribou")
	if err != nil || incomplete {
		t.Fatalf("err=%v incomplete=%v", err, incomplete)
	}
	ro := []string{"get", "list", "watch"}
	wantR := []authz.ResourceRule{
		{Verbs: ro, APIGroups: []string{""}, Resources: []string{"pods"}},
	}
	wantN := []authz.NonResourceRule{{Verbs: ro, NonResourceURLs: []string{"/apis/*"}}}
	if d := cmp.Diff(wantR, rr); d != "" {
		t.Errorf("resource rules (-want +got):\n%s", d)
	}
	if d := cmp.Diff(wantN, nr); d != "" {
		t.Errorf("non-resource rules (-want +got):\n%s", d)
	}
	rr, _, _, _ = a.RulesFor(context.Background(), bob, "shared")
	wantShared := []authz.ResourceRule{{Verbs: ro, APIGroups: []string{"apps"}, Resources: []string{"deployments"}}}
	if d := cmp.Diff(wantShared, rr); d != "" {
		t.Errorf("shared (-want +got):\n%s", d)
	}
	admin, _, _, _ := a.RulesFor(context.Background(), &authn.User{Name: "admin"}, "any")
	if len(admin) != 1 || admin[0].Verbs[0] != "*" || admin[0].Resources[0] != "*" {
		t.Errorf("admin rules %+v", admin)
	}
}
