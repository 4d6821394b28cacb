package node

import (
	"context"
	"testing"

	"go.uber.org/zap"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/apiserver/authz"
	"platform.io/platform/pkg/component/authn"
)

func nodeUser(n string) *authn.User {
	return &authn.User{Name: NodeUserPrefix + n, Groups: []string{NodesGroup, authn.AllAuthenticated}}
}

func req(u *authn.User, verb, group, resource, sub, ns, name string) authz.Attributes {
	return authz.Attributes{User: u, Verb: verb, ResourceRequest: true, APIGroup: group, Resource: resource, Subresource: sub, Namespace: ns, Name: name}
}

func TestAuthorize(t *testing.T) {
	src := newTestSource()
	a := New(zap.NewNop(), src)
	src.upsert(everything("ns", "web", "n1"))
	src.upsert(makePod("ns", "other").node("n2").volume(corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: "theirs"}}).obj())
	n1, n2 := nodeUser("n1"), nodeUser("n2")
	notInGroup := &authn.User{Name: NodeUserPrefix + "n1"}
	alice := &authn.User{Name: "alice", Groups: []string{NodesGroup}}
	tests := []struct {
		name string
		a    authz.Attributes
		want authz.Decision
	}{
		{"own pod get", req(n1, "get", "", "pods", "", "ns", "web"), authz.Allow},
		{"own pod watch by name", req(n1, "watch", "", "pods", "", "ns", "web"), authz.Allow},
		{"own pod delete", req(n1, "delete", "", "pods", "", "ns", "web"), authz.Allow},
		{"own pod status", req(n1, "patch", "", "pods", "status", "ns", "web"), authz.Allow},
		{"own pod status update", req(n1, "update", "", "pods", "status", "ns", "web"), authz.Allow},
		{"own pod eviction", req(n1, "create", "", "pods", "eviction", "ns", "web"), authz.Allow},
		{"own pod update spec", req(n1, "update", "", "pods", "", "ns", "web"), authz.NoOpinion},
		{"own pod binding", req(n1, "create", "", "pods", "binding", "ns", "web"), authz.NoOpinion},
		{"other node's pod", req(n1, "get", "", "pods", "", "ns", "other"), authz.NoOpinion},
		{"other node's pod status", req(n1, "patch", "", "pods", "status", "ns", "other"), authz.NoOpinion},
		{"list pods left to RBAC", req(n1, "list", "", "pods", "", "", ""), authz.NoOpinion},
		{"referenced secret", req(n1, "get", "", "secrets", "", "ns", "env-secret"), authz.Allow},
		{"pull secret", req(n1, "get", "", "secrets", "", "ns", "pull"), authz.Allow},
		{"referenced secret list by name", req(n1, "list", "", "secrets", "", "ns", "vol-secret"), authz.Allow},
		{"secret write", req(n1, "update", "", "secrets", "", "ns", "vol-secret"), authz.NoOpinion},
		{"secret of another node's pod", req(n1, "get", "", "secrets", "", "ns", "theirs"), authz.NoOpinion},
		{"that node reads it", req(n2, "get", "", "secrets", "", "ns", "theirs"), authz.Allow},
		{"secret list unnamed", req(n1, "list", "", "secrets", "", "ns", ""), authz.NoOpinion},
		{"secret in another namespace", req(n1, "get", "", "secrets", "", "other", "pull"), authz.NoOpinion},
		{"referenced configmap", req(n1, "get", "", "configmaps", "", "ns", "proj-cm"), authz.Allow},
		{"unreferenced configmap", req(n1, "get", "", "configmaps", "", "ns", "x"), authz.NoOpinion},
		{"referenced claim", req(n1, "get", "", "persistentvolumeclaims", "", "ns", "data"), authz.Allow},
		{"referenced service account", req(n1, "get", "", "serviceaccounts", "", "ns", "runner"), authz.Allow},
		{"token for it", req(n1, "create", "", "serviceaccounts", "token", "ns", "runner"), authz.Allow},
		{"token for another", req(n1, "create", "", "serviceaccounts", "token", "ns", "default"), authz.NoOpinion},
		{"own node get", req(n1, "get", "", "nodes", "", "", "n1"), authz.Allow},
		{"own node patch", req(n1, "patch", "", "nodes", "", "", "n1"), authz.Allow},
		{"own node status", req(n1, "update", "", "nodes", "status", "", "n1"), authz.Allow},
		{"own node delete", req(n1, "delete", "", "nodes", "", "", "n1"), authz.NoOpinion},
		{"other node patch", req(n1, "patch", "", "nodes", "", "", "n2"), authz.NoOpinion},
		{"other node status", req(n1, "update", "", "nodes", "status", "", "n2"), authz.NoOpinion},
		{"own lease", req(n1, "update", "coordination.platform.io", "leases", "", NodeLeaseNamespace, "n1"), authz.Allow},
		{"lease create", req(n1, "create", "coordination.platform.io", "leases", "", NodeLeaseNamespace, ""), authz.Allow},
		{"other lease", req(n1, "update", "coordination.platform.io", "leases", "", NodeLeaseNamespace, "n2"), authz.NoOpinion},
		{"lease elsewhere", req(n1, "update", "coordination.platform.io", "leases", "", "platform-system", "n1"), authz.NoOpinion},
		{"lease list", req(n1, "list", "coordination.platform.io", "leases", "", NodeLeaseNamespace, ""), authz.NoOpinion},
		{"events create", req(n1, "create", "", "events", "", "ns", ""), authz.Allow},
		{"events.platform.io patch", req(n1, "patch", "events.platform.io", "events", "", "ns", "e"), authz.Allow},
		{"events delete", req(n1, "delete", "", "events", "", "ns", "e"), authz.NoOpinion},
		{"other resources", req(n1, "get", "apps", "deployments", "", "ns", "d"), authz.NoOpinion},
		{"non-resource", authz.Attributes{User: n1, Verb: "get", Path: "/healthz"}, authz.NoOpinion},
		{"not in system:nodes", req(notInGroup, "get", "", "pods", "", "ns", "web"), authz.NoOpinion},
		{"not a node name", req(alice, "get", "", "pods", "", "ns", "web"), authz.NoOpinion},
		{"no user", req(nil, "get", "", "pods", "", "ns", "web"), authz.NoOpinion},
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

// TestBindThenDelete: a pod bound grants its secret to the node, and
// deleting it revokes the grant.
func TestBindThenDelete(t *testing.T) {
	src := newTestSource()
	a := New(zap.NewNop(), src)
	get := req(nodeUser("n1"), "get", "", "secrets", "", "ns", "s")
	pod := makePod("ns", "p").volume(corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: "s"}})
	steps := []struct {
		do   func()
		want authz.Decision
	}{
		{func() { src.upsert(pod.obj()) }, authz.NoOpinion},
		{func() { p := *pod.obj(); p.Spec.NodeName = "n1"; src.upsert(&p) }, authz.Allow},
		{func() { src.delete("ns", "p") }, authz.NoOpinion},
	}
	for i, s := range steps {
		s.do()
		if got, _, _ := a.Authorize(context.Background(), get); got != s.want {
			t.Fatalf("step %d: %v, want %v", i, got, s.want)
		}
	}
}

func TestRulesFor(t *testing.T) {
	a := New(zap.NewNop(), newTestSource())
	if _, _, incomplete, err := a.RulesFor(context.Background(), nodeUser("n1"), "ns"); !incomplete || err == nil {
		t.Errorf("node: incomplete=%v err=%v", incomplete, err)
	}
	if _, _, incomplete, err := a.RulesFor(context.Background(), &authn.User{Name: "alice"}, "ns"); incomplete || err != nil {
		t.Errorf("alice: incomplete=%v err=%v", incomplete, err)
	}
}
