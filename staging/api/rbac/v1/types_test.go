package v1

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"

	"platform.io/client/api/apitest"
	"platform.io/client/api/meta"
)

func TestTags(t *testing.T) {
	apitest.CheckTags(t, Role{}, RoleList{}, ClusterRole{}, ClusterRoleList{},
		RoleBinding{}, RoleBindingList{}, ClusterRoleBinding{}, ClusterRoleBindingList{})
}

const adminRole = `{
  "apiVersion": "rbac.authorization.platform.io/v1",
  "kind": "ClusterRole",
  "metadata": {"name": "admin", "labels": {"rbac.authorization.platform.io/aggregate-to-admin": "true"}},
  "aggregationRule": {"clusterRoleSelectors": [{"matchLabels": {"rbac.authorization.platform.io/aggregate-to-admin": "true"}}]},
  "rules": [
    {"verbs": ["get", "list"], "apiGroups": ["", "apps"], "resources": ["pods", "deployments/scale"], "resourceNames": ["web"]},
    {"verbs": ["get"], "nonResourceURLs": ["/healthz", "/healthz/*"]}
  ]
}`

func TestClusterRoleRoundTrip(t *testing.T) {
	r := apitest.RoundTripJSON[ClusterRole](t, adminRole)
	if len(r.Rules) != 2 || r.Rules[0].ResourceNames[0] != "web" || r.Rules[1].NonResourceURLs[1] != "/healthz/*" {
		t.Errorf("rules = %+v", r.Rules)
	}
	if r.AggregationRule == nil || len(r.AggregationRule.ClusterRoleSelectors) != 1 {
		t.Errorf("aggregationRule = %+v", r.AggregationRule)
	}
	var back ClusterRole
	if err := back.UnmarshalProto(r.MarshalProto(nil)); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(r.Rules, back.Rules); diff != "" || back.AggregationRule == nil {
		t.Errorf("protobuf round trip (-json +proto):\n%s", diff)
	}
}

func TestBindingRoundTrip(t *testing.T) {
	b := apitest.RoundTripJSON[RoleBinding](t, `{"apiVersion":"rbac.authorization.platform.io/v1","kind":"RoleBinding",
	  "metadata":{"name":"read","namespace":"dev"},
	  "subjects":[{"kind":"User","apiGroup":"rbac.authorization.platform.io","name":"alice"},{"kind":"ServiceAccount","name":"default","namespace":"dev"}],
	  "roleRef":{"apiGroup":"rbac.authorization.platform.io","kind":"ClusterRole","name":"view"}}`)
	if len(b.Subjects) != 2 || b.Subjects[1].Namespace != "dev" || b.RoleRef.Name != "view" {
		t.Errorf("binding = %+v", b)
	}
}

// TestProtobufNumbers checks the field numbers against upstream's wire
// format, byte for byte (for objects, the bytes after the metadata).
func TestProtobufNumbers(t *testing.T) {
	tests := []struct {
		name string
		got  []byte
		want []byte
	}{
		{"PolicyRule", (&PolicyRule{Verbs: []string{"a"}, APIGroups: []string{"b"}, Resources: []string{"c"}, ResourceNames: []string{"d"}, NonResourceURLs: []string{"e"}}).MarshalProto(nil),
			[]byte{0x0a, 1, 'a', 0x12, 1, 'b', 0x1a, 1, 'c', 0x22, 1, 'd', 0x2a, 1, 'e'}},
		{"Subject", (&Subject{Kind: "a", APIGroup: "b", Name: "c", Namespace: "d"}).MarshalProto(nil),
			[]byte{0x0a, 1, 'a', 0x12, 1, 'b', 0x1a, 1, 'c', 0x22, 1, 'd'}},
		{"RoleRef", (&RoleRef{APIGroup: "a", Kind: "b", Name: "c"}).MarshalProto(nil),
			[]byte{0x0a, 1, 'a', 0x12, 1, 'b', 0x1a, 1, 'c'}},
		{"ClusterRole.aggregationRule", (&ClusterRole{AggregationRule: &AggregationRule{ClusterRoleSelectors: []meta.LabelSelector{{}}}}).MarshalProto(nil),
			[]byte{0x1a, 2, 0x0a, 0}},
		{"RoleBinding", (&RoleBinding{Subjects: []Subject{{}}, RoleRef: RoleRef{}}).MarshalProto(nil),
			[]byte{0x12, 8, 0x0a, 0, 0x12, 0, 0x1a, 0, 0x22, 0, 0x1a, 6, 0x0a, 0, 0x12, 0, 0x1a, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !bytes.HasSuffix(tt.got, tt.want) {
				t.Errorf("got % x\nwant % x", tt.got, tt.want)
			}
		})
	}
}

func TestRegister(t *testing.T) {
	if SchemeGroupVersion.String() != "rbac.authorization.platform.io/v1" || Resource("roles").String() != "roles.rbac.authorization.platform.io" {
		t.Errorf("group version %s", SchemeGroupVersion)
	}
}
