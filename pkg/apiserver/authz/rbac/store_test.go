package rbac_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	rbacv1 "platform.io/client/api/rbac/v1"

	"platform.io/platform/pkg/apiserver/authz"
	"platform.io/platform/pkg/apiserver/authz/rbac"
	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/registry/rbac/clusterrole"
	"platform.io/platform/pkg/apiserver/registry/rbac/clusterrolebinding"
	"platform.io/platform/pkg/apiserver/registry/rbac/role"
	"platform.io/platform/pkg/apiserver/registry/rbac/rolebinding"
	"platform.io/platform/pkg/apiserver/storage/etcd3"
	"platform.io/platform/pkg/apiserver/storage/etcdtest"
	"platform.io/platform/pkg/component/authn"
)

// env is a running policy over real etcd-backed stores, with escalation
// checks asking the policy itself about escalate and bind.
type env struct {
	stores rbac.Stores
	policy *rbac.Policy
}

func newEnv(t *testing.T) *env {
	t.Helper()
	c, prefix := etcdtest.Client(t)
	st := etcd3.New(zap.NewNop(), c, prometheus.NewRegistry())
	esc := &rbac.Escalation{}
	cfg := registry.Config{Storage: st, Prefix: prefix}
	stores := rbac.Stores{
		Roles:               registry.NewStore(role.Resource(esc), cfg),
		ClusterRoles:        registry.NewStore(clusterrole.Resource(esc), cfg),
		RoleBindings:        registry.NewStore(rolebinding.Resource(esc), cfg),
		ClusterRoleBindings: registry.NewStore(clusterrolebinding.Resource(esc), cfg),
	}
	p := rbac.New(zap.NewNop(), stores)
	esc.SetPolicy(p.Authorizer)
	esc.SetAuthorizer(p)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { p.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	wctx, wcancel := context.WithTimeout(ctx, 10*time.Second)
	defer wcancel()
	if err := p.WaitSynced(wctx); err != nil {
		t.Fatal(err)
	}
	return &env{stores: stores, policy: p}
}

func admin() context.Context { return authn.WithUser(context.Background(), rbac.APIServerUser()) }

func as(name string, groups ...string) context.Context {
	return authn.WithUser(context.Background(), &authn.User{Name: name, Groups: groups})
}

// eventually waits for cond, which reads the policy's index, to hold.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (e *env) allowed(u *authn.User, a authz.Attributes) bool {
	a.User = u
	d, _, _ := e.policy.Authorize(context.Background(), a)
	return d == authz.Allow
}

func mustCreate(t *testing.T, ctx context.Context, s *registry.Store, obj meta.Object) {
	t.Helper()
	if _, err := s.Create(ctx, obj, false); err != nil {
		t.Fatalf("create %T %s: %v", obj, obj.GetObjectMeta().Name, err)
	}
}

func rules(verbs []string, groups []string, resources ...string) []rbacv1.PolicyRule {
	return []rbacv1.PolicyRule{{Verbs: verbs, APIGroups: groups, Resources: resources}}
}

func ref(kind, name string) rbacv1.RoleRef {
	return rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: kind, Name: name}
}

func user(name string) rbacv1.Subject {
	return rbacv1.Subject{Kind: rbacv1.UserKind, APIGroup: rbacv1.GroupName, Name: name}
}

func TestFeedAndAggregation(t *testing.T) {
	e := newEnv(t)
	ctx := admin()
	alice := &authn.User{Name: "alice"}
	getPod := authz.Attributes{Verb: "get", ResourceRequest: true, Resource: "pods", Namespace: "dev", Name: "p"}
	label := "example.com/aggregate-to-reader"
	mustCreate(t, ctx, e.stores.ClusterRoles, &rbacv1.ClusterRole{ObjectMeta: meta.ObjectMeta{Name: "reader"},
		AggregationRule: &rbacv1.AggregationRule{ClusterRoleSelectors: []meta.LabelSelector{{MatchLabels: map[string]string{label: "true"}}}}})
	mustCreate(t, ctx, e.stores.RoleBindings, &rbacv1.RoleBinding{ObjectMeta: meta.ObjectMeta{Namespace: "dev", Name: "alice-reads"},
		Subjects: []rbacv1.Subject{user("alice")}, RoleRef: ref("ClusterRole", "reader")})
	if e.allowed(alice, getPod) {
		t.Fatal("allowed before any rule was aggregated")
	}
	mustCreate(t, ctx, e.stores.ClusterRoles, &rbacv1.ClusterRole{ObjectMeta: meta.ObjectMeta{Name: "pod-reader", Labels: map[string]string{label: "true"}},
		Rules: rules([]string{"get"}, []string{""}, "pods")})
	eventually(t, "the aggregated rule to allow", func() bool { return e.allowed(alice, getPod) })
	got, err := e.stores.ClusterRoles.Get(ctx, "", "reader")
	if err != nil || len(got.(*rbacv1.ClusterRole).Rules) != 1 {
		t.Fatalf("aggregated role in storage: %+v, %v", got, err)
	}
	if _, err := e.stores.ClusterRoles.Delete(ctx, "", "pod-reader", &meta.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the removed rule to stop allowing", func() bool { return !e.allowed(alice, getPod) })
	if _, err := e.stores.RoleBindings.Delete(ctx, "dev", "alice-reads", &meta.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the index to drop the binding", func() bool {
		r, _ := e.policy.PolicyRules(alice, "dev")
		return len(r) == 0
	})
}

func TestEscalation(t *testing.T) {
	e := newEnv(t)
	ctx := admin()
	podRW := rules([]string{"get", "list", "create", "delete"}, []string{""}, "pods")
	podR := rules([]string{"get", "list"}, []string{""}, "pods")
	mustCreate(t, ctx, e.stores.ClusterRoles, &rbacv1.ClusterRole{ObjectMeta: meta.ObjectMeta{Name: "pod-rw"}, Rules: podRW})
	mustCreate(t, ctx, e.stores.ClusterRoles, &rbacv1.ClusterRole{ObjectMeta: meta.ObjectMeta{Name: "secrets"}, Rules: rules([]string{"get"}, []string{""}, "secrets")})
	// alice may read and write pods in dev, and manage roles and bindings there.
	mustCreate(t, ctx, e.stores.ClusterRoles, &rbacv1.ClusterRole{ObjectMeta: meta.ObjectMeta{Name: "rbac-manager"},
		Rules: rules([]string{"get", "list", "create", "update", "patch"}, []string{rbacv1.GroupName}, "roles", "rolebindings")})
	for _, b := range []struct{ name, role string }{{"alice-pods", "pod-rw"}, {"alice-rbac", "rbac-manager"}} {
		mustCreate(t, ctx, e.stores.RoleBindings, &rbacv1.RoleBinding{ObjectMeta: meta.ObjectMeta{Namespace: "dev", Name: b.name},
			Subjects: []rbacv1.Subject{user("alice")}, RoleRef: ref("ClusterRole", b.role)})
	}
	// bob may escalate roles in dev; carol may bind the secrets role in dev.
	mustCreate(t, ctx, e.stores.ClusterRoles, &rbacv1.ClusterRole{ObjectMeta: meta.ObjectMeta{Name: "escalator"},
		Rules: rules([]string{"escalate", "create"}, []string{rbacv1.GroupName}, "roles")})
	mustCreate(t, ctx, e.stores.RoleBindings, &rbacv1.RoleBinding{ObjectMeta: meta.ObjectMeta{Namespace: "dev", Name: "bob"},
		Subjects: []rbacv1.Subject{user("bob")}, RoleRef: ref("ClusterRole", "escalator")})
	mustCreate(t, ctx, e.stores.ClusterRoles, &rbacv1.ClusterRole{ObjectMeta: meta.ObjectMeta{Name: "secret-binder"},
		Rules: []rbacv1.PolicyRule{{Verbs: []string{"bind"}, APIGroups: []string{rbacv1.GroupName}, Resources: []string{"clusterroles"}, ResourceNames: []string{"secrets"}}}})
	mustCreate(t, ctx, e.stores.RoleBindings, &rbacv1.RoleBinding{ObjectMeta: meta.ObjectMeta{Namespace: "dev", Name: "carol"},
		Subjects: []rbacv1.Subject{user("carol")}, RoleRef: ref("ClusterRole", "secret-binder")})
	eventually(t, "the policy to load", func() bool {
		r, _ := e.policy.PolicyRules(&authn.User{Name: "carol"}, "dev")
		a, _ := e.policy.PolicyRules(&authn.User{Name: "alice"}, "dev")
		return len(r) == 1 && len(a) == 2
	})

	n := 0
	roleIn := func(ns string, r []rbacv1.PolicyRule) *rbacv1.Role {
		n++
		return &rbacv1.Role{ObjectMeta: meta.ObjectMeta{Namespace: ns, Name: "r" + string(rune('a'+n))}, Rules: r}
	}
	bindingIn := func(ns string, rr rbacv1.RoleRef) *rbacv1.RoleBinding {
		n++
		return &rbacv1.RoleBinding{ObjectMeta: meta.ObjectMeta{Namespace: ns, Name: "b" + string(rune('a'+n))}, Subjects: []rbacv1.Subject{user("dave")}, RoleRef: rr}
	}
	tests := []struct {
		name  string
		ctx   context.Context
		store *registry.Store
		obj   meta.Object
		ok    bool
	}{
		{"role within own rules", as("alice"), e.stores.Roles, roleIn("dev", podR), true},
		{"role beyond own rules", as("alice"), e.stores.Roles, roleIn("dev", rules([]string{"get"}, []string{""}, "secrets")), false},
		{"role in a namespace where alice holds nothing", as("alice"), e.stores.Roles, roleIn("prod", podR), false},
		{"anonymous", context.Background(), e.stores.Roles, roleIn("dev", podR), false},
		{"system:masters", as("root", "system:masters"), e.stores.Roles, roleIn("prod", rules([]string{"*"}, []string{"*"}, "*")), true},
		{"escalate verb", as("bob"), e.stores.Roles, roleIn("dev", rules([]string{"*"}, []string{"*"}, "*")), true},
		{"escalate verb only in its namespace", as("bob"), e.stores.Roles, roleIn("prod", podR), false},
		{"aggregation needs escalate", as("alice"), e.stores.ClusterRoles, &rbacv1.ClusterRole{ObjectMeta: meta.ObjectMeta{Name: "agg"},
			AggregationRule: &rbacv1.AggregationRule{ClusterRoleSelectors: []meta.LabelSelector{{MatchLabels: map[string]string{"a": "b"}}}}}, false},
		{"bind a role alice holds", as("alice"), e.stores.RoleBindings, bindingIn("dev", ref("ClusterRole", "pod-rw")), true},
		{"bind a role alice does not hold", as("alice"), e.stores.RoleBindings, bindingIn("dev", ref("ClusterRole", "secrets")), false},
		{"bind a missing role", as("alice"), e.stores.RoleBindings, bindingIn("dev", ref("Role", "nope")), false},
		{"bind verb", as("carol"), e.stores.RoleBindings, bindingIn("dev", ref("ClusterRole", "secrets")), true},
		{"bind verb names one role", as("carol"), e.stores.RoleBindings, bindingIn("dev", ref("ClusterRole", "pod-rw")), false},
		{"cluster binding needs cluster-wide rules", as("alice"), e.stores.ClusterRoleBindings, &rbacv1.ClusterRoleBinding{ObjectMeta: meta.ObjectMeta{Name: "cb"},
			Subjects: []rbacv1.Subject{user("dave")}, RoleRef: ref("ClusterRole", "pod-rw")}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, dry := range []bool{true, false} {
				_, err := tt.store.Create(tt.ctx, tt.obj, dry)
				if tt.ok && err != nil {
					t.Fatalf("dryRun=%v: refused: %v", dry, err)
				}
				if !tt.ok && !apierrors.IsForbidden(err) {
					t.Fatalf("dryRun=%v: got %v, want Forbidden", dry, err)
				}
			}
		})
	}

	// An update is checked like a create; one that changes no rule is not.
	r := roleIn("dev", podR)
	mustCreate(t, ctx, e.stores.Roles, r)
	grow := func(_ context.Context, cur meta.Object) (meta.Object, error) {
		cur.(*rbacv1.Role).Rules = rules([]string{"*"}, []string{"*"}, "*")
		return cur, nil
	}
	if _, _, err := e.stores.Roles.Update(as("alice"), "dev", r.Name, grow, registry.UpdateOptions{Patch: true}); !apierrors.IsForbidden(err) {
		t.Errorf("growing update: %v, want Forbidden", err)
	}
	relabel := func(_ context.Context, cur meta.Object) (meta.Object, error) {
		cur.GetObjectMeta().Labels = map[string]string{"x": "y"}
		return cur, nil
	}
	if _, _, err := e.stores.Roles.Update(as("nobody"), "dev", r.Name, relabel, registry.UpdateOptions{Patch: true}); err != nil {
		t.Errorf("metadata-only update: %v", err)
	}
	_, err := e.stores.Roles.Create(as("alice"), roleIn("dev", rules([]string{"get"}, []string{""}, "secrets")), false)
	if err == nil || !strings.Contains(err.Error(), `user "alice" (groups=[]) is attempting to grant RBAC permissions not currently held:`+"\n"+`{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}`) {
		t.Errorf("message: %v", err)
	}
}
