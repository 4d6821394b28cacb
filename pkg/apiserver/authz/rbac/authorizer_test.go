package rbac

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"platform.io/client/api/meta"
	rbacv1 "platform.io/client/api/rbac/v1"

	"platform.io/platform/pkg/apiserver/authz"
	"platform.io/platform/pkg/component/authn"
)

func om(ns, name string) meta.ObjectMeta { return meta.ObjectMeta{Namespace: ns, Name: name} }

func roleRef(kind, name string) rbacv1.RoleRef {
	return rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: kind, Name: name}
}

func userSubject(name string) rbacv1.Subject {
	return rbacv1.Subject{Kind: rbacv1.UserKind, APIGroup: rbacv1.GroupName, Name: name}
}

func groupSubject(name string) rbacv1.Subject {
	return rbacv1.Subject{Kind: rbacv1.GroupKind, APIGroup: rbacv1.GroupName, Name: name}
}

var (
	readPods  = []rbacv1.PolicyRule{pr(s("get", "list"), s(""), s("pods"), nil, nil)}
	writeJobs = []rbacv1.PolicyRule{pr(s("create"), s("batch"), s("jobs"), nil, nil)}
	healthz   = []rbacv1.PolicyRule{pr(s("get"), nil, nil, nil, s("/healthz/*"))}
)

func decide(t *testing.T, z *Authorizer, u *authn.User, a authz.Attributes) authz.Decision {
	t.Helper()
	a.User = u
	d, _, err := z.Authorize(context.Background(), a)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestAuthorizeIndex(t *testing.T) {
	x := newIndex()
	z := &Authorizer{idx: x}
	alice := &authn.User{Name: "alice", Groups: []string{"dev", "system:authenticated"}}
	bob := &authn.User{Name: "bob"}
	sa := &authn.User{Name: ServiceAccountUser("ns1", "builder")}
	getPod := res("get", "", "pods", "", "ns1", "web")
	getPodNS2 := res("get", "", "pods", "", "ns2", "web")
	createJob := res("create", "batch", "jobs", "", "ns1", "")

	x.setRole(&rbacv1.Role{ObjectMeta: om("ns1", "reader"), Rules: readPods})
	x.setClusterRole(&rbacv1.ClusterRole{ObjectMeta: om("", "jobs"), Rules: writeJobs})
	x.setClusterRole(&rbacv1.ClusterRole{ObjectMeta: om("", "health"), Rules: healthz})

	steps := []struct {
		name   string
		change func()
		user   *authn.User
		a      authz.Attributes
		want   authz.Decision
	}{
		{"nothing bound", func() {}, alice, getPod, authz.NoOpinion},
		{"user bound in ns1", func() {
			x.setRoleBinding(&rbacv1.RoleBinding{ObjectMeta: om("ns1", "rb"), Subjects: []rbacv1.Subject{userSubject("alice")}, RoleRef: roleRef("Role", "reader")})
		}, alice, getPod, authz.Allow},
		{"not in ns2", func() {}, alice, getPodNS2, authz.NoOpinion},
		{"not bob", func() {}, bob, getPod, authz.NoOpinion},
		{"binding changed to bob", func() {
			x.setRoleBinding(&rbacv1.RoleBinding{ObjectMeta: om("ns1", "rb"), Subjects: []rbacv1.Subject{userSubject("bob")}, RoleRef: roleRef("Role", "reader")})
		}, alice, getPod, authz.NoOpinion},
		{"bob now", func() {}, bob, getPod, authz.Allow},
		{"role changed", func() {
			x.setRole(&rbacv1.Role{ObjectMeta: om("ns1", "reader"), Rules: writeJobs})
		}, bob, getPod, authz.NoOpinion},
		{"binding removed", func() { x.deleteRoleBinding("ns1", "rb") }, bob, createJob, authz.NoOpinion},
		{"group via ClusterRole in one namespace", func() {
			x.setRoleBinding(&rbacv1.RoleBinding{ObjectMeta: om("ns1", "jobs"), Subjects: []rbacv1.Subject{groupSubject("dev")}, RoleRef: roleRef("ClusterRole", "jobs")})
		}, alice, createJob, authz.Allow},
		{"that binding is not cluster-wide", func() {}, alice, res("create", "batch", "jobs", "", "ns2", ""), authz.NoOpinion},
		{"service account without namespace is in the binding's", func() {
			x.setRoleBinding(&rbacv1.RoleBinding{ObjectMeta: om("ns1", "sa"), Subjects: []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: "builder"}}, RoleRef: roleRef("ClusterRole", "jobs")})
		}, sa, createJob, authz.Allow},
		{"cluster binding grants urls", func() {
			x.setClusterRoleBinding(&rbacv1.ClusterRoleBinding{ObjectMeta: om("", "health"), Subjects: []rbacv1.Subject{groupSubject("system:authenticated")}, RoleRef: roleRef("ClusterRole", "health")})
		}, alice, path("get", "/healthz/etcd"), authz.Allow},
		{"cluster binding removed", func() { x.deleteClusterRoleBinding("health") }, alice, path("get", "/healthz/etcd"), authz.NoOpinion},
		{"cluster role removed", func() { x.deleteClusterRole("jobs") }, alice, createJob, authz.NoOpinion},
		{"replace drops what the list lacks", func() {
			x.replace("RoleBinding", []meta.Object{&rbacv1.RoleBinding{ObjectMeta: om("ns1", "other"), RoleRef: roleRef("ClusterRole", "jobs")}})
		}, sa, createJob, authz.NoOpinion},
		{"replace keeps what the list has", func() {
			x.setClusterRole(&rbacv1.ClusterRole{ObjectMeta: om("", "jobs"), Rules: writeJobs})
			x.replace("RoleBinding", []meta.Object{&rbacv1.RoleBinding{ObjectMeta: om("ns1", "sa"),
				Subjects: []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: "builder"}}, RoleRef: roleRef("ClusterRole", "jobs")}})
		}, sa, createJob, authz.Allow},
		{"replace with nothing", func() {
			x.replace("ClusterRoleBinding", nil)
			x.replace("RoleBinding", nil)
		}, sa, createJob, authz.NoOpinion},
	}
	for _, st := range steps {
		st.change()
		if got := decide(t, z, st.user, st.a); got != st.want {
			t.Errorf("%s: %s %+v = %v, want %v", st.name, st.user.Name, st.a, got, st.want)
		}
	}
	if len(x.nsSubjects) != 0 || len(x.clusterSubjects) != 0 {
		t.Errorf("index not emptied: %v %v", x.nsSubjects, x.clusterSubjects)
	}
}

func TestAuthorizeReasons(t *testing.T) {
	x := newIndex()
	z := &Authorizer{idx: x}
	x.setClusterRole(&rbacv1.ClusterRole{ObjectMeta: om("", "admin"), Rules: []rbacv1.PolicyRule{pr(s("*"), s("*"), s("*"), nil, nil)}})
	x.setClusterRoleBinding(&rbacv1.ClusterRoleBinding{ObjectMeta: om("", "admins"), Subjects: []rbacv1.Subject{groupSubject("system:masters")}, RoleRef: roleRef("ClusterRole", "admin")})
	x.setRoleBinding(&rbacv1.RoleBinding{ObjectMeta: om("ns", "dangling"), Subjects: []rbacv1.Subject{userSubject("carol")}, RoleRef: roleRef("Role", "gone")})
	d, reason, _ := z.Authorize(context.Background(), authz.Attributes{User: &authn.User{Name: "root", Groups: []string{"system:masters"}}, Verb: "get", ResourceRequest: true, Resource: "pods"})
	if d != authz.Allow || reason != `RBAC: allowed by ClusterRoleBinding "admins" of ClusterRole "admin"` {
		t.Errorf("allow: %v %q", d, reason)
	}
	d, reason, _ = z.Authorize(context.Background(), authz.Attributes{User: &authn.User{Name: "carol"}, Verb: "get", ResourceRequest: true, Resource: "pods", Namespace: "ns"})
	if d != authz.NoOpinion || !strings.Contains(reason, `role.rbac.authorization.platform.io "gone" not found`) {
		t.Errorf("dangling: %v %q", d, reason)
	}
	if d, _, _ := z.Authorize(context.Background(), authz.Attributes{Verb: "get"}); d != authz.NoOpinion {
		t.Errorf("no user: %v", d)
	}
}

func TestRulesFor(t *testing.T) {
	x := newIndex()
	z := &Authorizer{idx: x}
	x.setRole(&rbacv1.Role{ObjectMeta: om("ns1", "reader"), Rules: readPods})
	x.setClusterRole(&rbacv1.ClusterRole{ObjectMeta: om("", "health"), Rules: healthz})
	x.setRoleBinding(&rbacv1.RoleBinding{ObjectMeta: om("ns1", "rb"), Subjects: []rbacv1.Subject{userSubject("alice")}, RoleRef: roleRef("Role", "reader")})
	x.setClusterRoleBinding(&rbacv1.ClusterRoleBinding{ObjectMeta: om("", "h"), Subjects: []rbacv1.Subject{userSubject("alice")}, RoleRef: roleRef("ClusterRole", "health")})
	alice := &authn.User{Name: "alice"}
	rr, nr, inc, err := z.RulesFor(context.Background(), alice, "ns1")
	if err != nil || inc || len(rr) != 1 || rr[0].Resources[0] != "pods" || len(nr) != 1 || nr[0].NonResourceURLs[0] != "/healthz/*" {
		t.Errorf("ns1: %+v %+v %v %v", rr, nr, inc, err)
	}
	rr, nr, _, _ = z.RulesFor(context.Background(), alice, "")
	if len(rr) != 0 || len(nr) != 1 {
		t.Errorf("cluster only: %+v %+v", rr, nr)
	}
}

func TestAggregatedRules(t *testing.T) {
	label := "rbac.authorization.platform.io/aggregate-to-view"
	all := []*rbacv1.ClusterRole{
		{ObjectMeta: meta.ObjectMeta{Name: "view"}},
		{ObjectMeta: meta.ObjectMeta{Name: "b-extra", Labels: map[string]string{label: "true"}}, Rules: readPods},
		{ObjectMeta: meta.ObjectMeta{Name: "a-base", Labels: map[string]string{label: "true"}}, Rules: append(writeJobs, readPods...)},
		{ObjectMeta: meta.ObjectMeta{Name: "other", Labels: map[string]string{label: "false"}}, Rules: healthz},
	}
	got, err := AggregatedRules("view", &rbacv1.AggregationRule{ClusterRoleSelectors: []meta.LabelSelector{{MatchLabels: map[string]string{label: "true"}}}}, all)
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprint(append(writeJobs, readPods...))
	if fmt.Sprint(got) != want {
		t.Errorf("got %v, want %v (name order, no duplicates)", got, want)
	}
}
