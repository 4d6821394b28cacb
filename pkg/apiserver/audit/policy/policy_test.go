package policy

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	auditv1 "platform.io/client/api/audit/v1"

	"platform.io/platform/pkg/apiserver/authz"
	"platform.io/platform/pkg/component/authn"
)

// testPolicy is shaped like upstream's example policy, in YAML under
// upstream's apiVersion.
const testPolicy = `
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived"]
rules:
- level: None
  users: ["system:kube-proxy"]
  verbs: ["watch"]
  resources:
  - group: ""
    resources: ["endpoints", "services"]
- level: None
  userGroups: ["system:nodes"]
  verbs: ["get"]
  resources:
  - group: ""
    resources: ["nodes"]
- level: None
  nonResourceURLs: ["/healthz*", "/version"]
- level: Metadata
  resources:
  - group: ""
    resources: ["secrets", "configmaps"]
- level: RequestResponse
  resources:
  - group: ""
    resources: ["pods/*"]
    resourceNames: ["special"]
- level: Request
  resources:
  - group: ""
    resources: ["pods/log", "pods/status"]
- level: Metadata
  omitStages: ["ResponseStarted"]
  resources:
  - group: "rbac.authorization.k8s.io"
- level: Request
  resources:
  - group: "apps"
    resources: ["*/scale"]
- level: Request
  namespaces: ["kube-system"]
  omitManagedFields: false
- level: None
  resources:
  - group: "apps"
    resources: ["*"]
- level: Metadata
`

func resourceAttrs(user *authn.User, verb, group, resource, sub, ns, name string) authz.Attributes {
	return authz.Attributes{User: user, Verb: verb, ResourceRequest: true, APIGroup: group, APIVersion: "v1",
		Resource: resource, Subresource: sub, Namespace: ns, Name: name}
}

func TestEvaluate(t *testing.T) {
	p, err := Parse([]byte(testPolicy))
	if err != nil {
		t.Fatal(err)
	}
	p.OmitManagedFields = true
	e := New(p)
	alice := &authn.User{Name: "alice", Groups: []string{"system:authenticated"}}
	proxy := &authn.User{Name: "system:kube-proxy"}
	node := &authn.User{Name: "system:node:n1", Groups: []string{"system:nodes"}}
	tests := []struct {
		name  string
		attrs authz.Attributes
		want  auditv1.Level
	}{
		{"user and verb and resource", resourceAttrs(proxy, "watch", "", "endpoints", "", "default", ""), auditv1.LevelNone},
		{"same user other verb falls through", resourceAttrs(proxy, "list", "", "endpoints", "", "default", ""), auditv1.LevelMetadata},
		{"user group", resourceAttrs(node, "get", "", "nodes", "", "", "n1"), auditv1.LevelNone},
		{"user group other user", resourceAttrs(alice, "get", "", "nodes", "", "", "n1"), auditv1.LevelMetadata},
		{"non-resource prefix", authz.Attributes{User: alice, Verb: "get", Path: "/healthz/etcd"}, auditv1.LevelNone},
		{"non-resource exact", authz.Attributes{User: alice, Verb: "get", Path: "/version"}, auditv1.LevelNone},
		{"non-resource exact is not a prefix", authz.Attributes{User: alice, Verb: "get", Path: "/versions"}, auditv1.LevelMetadata},
		{"secrets metadata", resourceAttrs(alice, "get", "", "secrets", "", "default", "s"), auditv1.LevelMetadata},
		{"resource/* matches the resource", resourceAttrs(alice, "get", "", "pods", "", "default", "special"), auditv1.LevelRequestResponse},
		{"resource/* matches a subresource", resourceAttrs(alice, "get", "", "pods", "exec", "default", "special"), auditv1.LevelRequestResponse},
		{"resourceNames", resourceAttrs(alice, "get", "", "pods", "exec", "default", "other"), auditv1.LevelMetadata},
		{"exact subresource", resourceAttrs(alice, "get", "", "pods", "log", "default", "other"), auditv1.LevelRequest},
		{"resource does not match its subresource", resourceAttrs(alice, "get", "", "secrets", "status", "default", "s"), auditv1.LevelMetadata},
		{"group given by upstream name", resourceAttrs(alice, "get", "rbac.authorization.platform.io", "roles", "", "default", "r"), auditv1.LevelMetadata},
		{"*/subresource", resourceAttrs(alice, "update", "apps", "deployments", "scale", "default", "d"), auditv1.LevelRequest},
		{"namespace", resourceAttrs(alice, "get", "", "services", "", "kube-system", "s"), auditv1.LevelRequest},
		{"* in group", resourceAttrs(alice, "get", "apps", "deployments", "", "default", "d"), auditv1.LevelNone},
		{"namespaces rule skips non-resource", authz.Attributes{User: alice, Verb: "get", Path: "/apis"}, auditv1.LevelMetadata},
		{"catch-all", resourceAttrs(alice, "get", "batch", "jobs", "", "default", "j"), auditv1.LevelMetadata},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := e.Evaluate(tt.attrs).Level; got != tt.want {
				t.Errorf("level = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestEvaluateStagesAndManagedFields(t *testing.T) {
	p, err := Parse([]byte(testPolicy))
	if err != nil {
		t.Fatal(err)
	}
	p.OmitManagedFields = true
	e := New(p)
	alice := &authn.User{Name: "alice"}
	rbacReq := e.Evaluate(resourceAttrs(alice, "get", "rbac.authorization.platform.io", "roles", "", "default", "r"))
	if diff := cmp.Diff([]auditv1.Stage{auditv1.StageRequestReceived, auditv1.StageResponseStarted}, rbacReq.OmitStages); diff != "" {
		t.Errorf("omitStages (-want +got):\n%s", diff)
	}
	if !rbacReq.OmitManagedFields {
		t.Error("the policy's omitManagedFields is not inherited")
	}
	ns := e.Evaluate(resourceAttrs(alice, "get", "", "services", "", "kube-system", "s"))
	if ns.OmitManagedFields {
		t.Error("the rule's omitManagedFields: false does not override the policy's")
	}
	none := New(&auditv1.Policy{OmitStages: []auditv1.Stage{auditv1.StagePanic}}).Evaluate(resourceAttrs(alice, "get", "", "pods", "", "", ""))
	if none.Level != auditv1.LevelNone {
		t.Errorf("no rule: level %s, want None", none.Level)
	}
}

func TestParseRefuses(t *testing.T) {
	tests := []struct{ name, doc string }{
		{"kind", `{"apiVersion":"audit.platform.io/v1","kind":"Config","rules":[]}`},
		{"version", `{"apiVersion":"audit.k8s.io/v1beta1","kind":"Policy","rules":[]}`},
		{"level", `{"apiVersion":"audit.platform.io/v1","kind":"Policy","rules":[{"level":"Everything"}]}`},
		{"stage", `{"apiVersion":"audit.platform.io/v1","kind":"Policy","omitStages":["Sent"],"rules":[]}`},
		{"rule stage", `{"apiVersion":"audit.platform.io/v1","kind":"Policy","rules":[{"level":"None","omitStages":["Sent"]}]}`},
		{"url and resources", `{"apiVersion":"audit.platform.io/v1","kind":"Policy","rules":[{"level":"None","nonResourceURLs":["/x"],"resources":[{"group":""}]}]}`},
		{"url star inside", `{"apiVersion":"audit.platform.io/v1","kind":"Policy","rules":[{"level":"None","nonResourceURLs":["/a*/b"]}]}`},
		{"bad resource", `{"apiVersion":"audit.platform.io/v1","kind":"Policy","rules":[{"level":"None","resources":[{"resources":["a/b/c"]}]}]}`},
		{"unknown field", `{"apiVersion":"audit.platform.io/v1","kind":"Policy","rules":[{"level":"None","user":["a"]}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Parse([]byte(tt.doc)); !errors.Is(err, ErrInvalid) {
				t.Errorf("Parse = %v, want ErrInvalid", err)
			}
		})
	}
}

func TestLoadFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "policy.json")
	doc := `{"apiVersion":"audit.platform.io/v1","kind":"Policy","rules":[{"level":"Metadata"}]}`
	if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Rules) != 1 || p.Rules[0].Level != auditv1.LevelMetadata {
		t.Errorf("rules = %+v", p.Rules)
	}
	if _, err := LoadFile(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("a missing file loads")
	}
}
