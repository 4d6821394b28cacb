package rbac

import (
	"context"
	"fmt"
	"testing"

	rbacv1 "platform.io/client/api/rbac/v1"

	"platform.io/platform/pkg/apiserver/authz"
	"platform.io/platform/pkg/component/authn"
)

// benchIndex holds 10,000 RoleBindings (100 namespaces of 100 users each,
// to the ClusterRole edit-like "work"), the bootstrap-like cluster-wide
// bindings for groups, and a few roles.
func benchIndex(b *testing.B) *Authorizer {
	x := newIndex()
	x.setClusterRole(&rbacv1.ClusterRole{ObjectMeta: om("", "work"), Rules: []rbacv1.PolicyRule{
		pr(s("get", "list", "watch"), s(""), s("pods", "services", "configmaps", "endpoints"), nil, nil),
		pr(s("get", "list", "watch", "create", "update", "patch", "delete"), s("apps"), s("deployments", "replicasets", "statefulsets"), nil, nil),
		pr(s("create", "update", "patch", "delete"), s(""), s("pods", "configmaps"), nil, nil),
	}})
	x.setClusterRole(&rbacv1.ClusterRole{ObjectMeta: om("", "discovery"), Rules: []rbacv1.PolicyRule{pr(s("get"), nil, nil, nil, s("/api", "/api/*", "/apis", "/apis/*"))}})
	x.setClusterRoleBinding(&rbacv1.ClusterRoleBinding{ObjectMeta: om("", "discovery"), Subjects: []rbacv1.Subject{groupSubject("system:authenticated")}, RoleRef: roleRef("ClusterRole", "discovery")})
	for ns := 0; ns < 100; ns++ {
		for u := 0; u < 100; u++ {
			x.setRoleBinding(&rbacv1.RoleBinding{ObjectMeta: om(fmt.Sprintf("ns-%d", ns), fmt.Sprintf("rb-%d", u)),
				Subjects: []rbacv1.Subject{userSubject(fmt.Sprintf("user-%d", u))}, RoleRef: roleRef("ClusterRole", "work")})
		}
	}
	if n := len(x.roleBindings); n != 10000 {
		b.Fatalf("%d RoleBindings", n)
	}
	return &Authorizer{idx: x}
}

// BenchmarkAuthorize decides requests with 10,000 RoleBindings present:
// an allowed write (the user's binding in that namespace, the last rule of
// its role), a request no rule allows, and a non-resource path.
func BenchmarkAuthorize(b *testing.B) {
	z := benchIndex(b)
	u := &authn.User{Name: "user-42", Groups: []string{"system:authenticated", "team-x"}}
	cases := []struct {
		name string
		a    authz.Attributes
		want authz.Decision
	}{
		{"allowed", authz.Attributes{User: u, Verb: "delete", ResourceRequest: true, Resource: "configmaps", Namespace: "ns-77", Name: "c"}, authz.Allow},
		{"no-opinion", authz.Attributes{User: u, Verb: "get", ResourceRequest: true, Resource: "secrets", Namespace: "ns-77", Name: "s"}, authz.NoOpinion},
		{"non-resource", authz.Attributes{User: u, Verb: "get", Path: "/apis/apps/v1"}, authz.Allow},
	}
	ctx := context.Background()
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if d, _, _ := z.Authorize(ctx, c.a); d != c.want {
					b.Fatalf("decision %v", d)
				}
			}
		})
	}
	b.Run("parallel", func(b *testing.B) {
		b.ReportAllocs()
		a := cases[0].a
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				z.Authorize(ctx, a)
			}
		})
	})
}
