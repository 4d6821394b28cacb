package bootstrap

import (
	"context"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	"platform.io/client/api/meta"
	rbacv1 "platform.io/client/api/rbac/v1"

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

func newStores(t *testing.T) rbac.Stores {
	c, prefix := etcdtest.Client(t)
	cfg := registry.Config{Storage: etcd3.New(zap.NewNop(), c, prometheus.NewRegistry()), Prefix: prefix}
	esc := &rbac.Escalation{} // only system:masters may write
	return rbac.Stores{
		Roles:               registry.NewStore(role.Resource(esc), cfg),
		ClusterRoles:        registry.NewStore(clusterrole.Resource(esc), cfg),
		RoleBindings:        registry.NewStore(rolebinding.Resource(esc), cfg),
		ClusterRoleBindings: registry.NewStore(clusterrolebinding.Resource(esc), cfg),
	}
}

func masters() context.Context { return authn.WithUser(context.Background(), rbac.APIServerUser()) }

func getCR(t *testing.T, s rbac.Stores, name string) *rbacv1.ClusterRole {
	t.Helper()
	o, err := s.ClusterRoles.Get(context.Background(), "", name)
	if err != nil {
		t.Fatal(err)
	}
	return o.(*rbacv1.ClusterRole)
}

func getCRB(t *testing.T, s rbac.Stores, name string) *rbacv1.ClusterRoleBinding {
	t.Helper()
	o, err := s.ClusterRoleBindings.Get(context.Background(), "", name)
	if err != nil {
		t.Fatal(err)
	}
	return o.(*rbacv1.ClusterRoleBinding)
}

func update[T any](t *testing.T, s *registry.Store, name string, f func(*T)) {
	t.Helper()
	_, _, err := s.Update(masters(), "", name, func(_ context.Context, cur meta.Object) (meta.Object, error) {
		f(any(cur).(*T))
		return cur, nil
	}, registry.UpdateOptions{Patch: true})
	if err != nil {
		t.Fatal(err)
	}
}

func TestReconcile(t *testing.T) {
	s := newStores(t)
	lg := zap.NewNop()
	if err := Reconcile(context.Background(), lg, s, Default()); err != nil {
		t.Fatal(err)
	}
	p := Default()
	n, err := s.ClusterRoles.Count(context.Background())
	if err != nil || int(n) != len(p.ClusterRoles) {
		t.Fatalf("%d ClusterRoles stored, want %d (%v)", n, len(p.ClusterRoles), err)
	}
	if got := getCRB(t, s, "cluster-admin"); got.Subjects[0].Name != SystemMasters {
		t.Errorf("cluster-admin binding %+v", got)
	}

	// An operator narrows the scheduler's role but leaves it reconciled,
	// adds a rule to edit, marks view as theirs and emptied, adds a
	// subject to system:discovery, and repoints system:basic-user.
	update(t, s.ClusterRoles, SchedulerUser, func(r *rbacv1.ClusterRole) { r.Rules = r.Rules[:1] })
	extra := rbacv1.PolicyRule{Verbs: []string{"get"}, APIGroups: []string{"example.com"}, Resources: []string{"widgets"}}
	update(t, s.ClusterRoles, "system:aggregate-to-edit", func(r *rbacv1.ClusterRole) { r.Rules = append(r.Rules, extra) })
	update(t, s.ClusterRoles, "system:aggregate-to-view", func(r *rbacv1.ClusterRole) {
		r.Rules = nil
		r.Annotations[rbacv1.AutoUpdateAnnotationKey] = "false"
	})
	update(t, s.ClusterRoleBindings, "system:discovery", func(b *rbacv1.ClusterRoleBinding) {
		b.Subjects = append(b.Subjects, user("robot"))
	})
	if _, err := s.ClusterRoles.Delete(masters(), "", "system:node", &meta.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ClusterRoleBindings.Delete(masters(), "", "system:basic-user", &meta.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	wrong := clusterBinding("system:basic-user", "view", group(AllAuthenticated))
	if _, err := s.ClusterRoleBindings.Create(masters(), &wrong, false); err != nil {
		t.Fatal(err)
	}

	if err := Reconcile(context.Background(), lg, s, Default()); err != nil {
		t.Fatal(err)
	}
	if got, want := getCR(t, s, SchedulerUser).Rules, roleNamed(t, p, SchedulerUser).Rules; len(got) != len(want) {
		t.Errorf("scheduler rules not restored: %d, want %d", len(got), len(want))
	}
	edit := getCR(t, s, "system:aggregate-to-edit").Rules
	if last := edit[len(edit)-1]; last.APIGroups[0] != "example.com" {
		t.Errorf("operator's rule removed from edit: %v", edit)
	}
	if got := getCR(t, s, "system:aggregate-to-view"); len(got.Rules) != 0 {
		t.Errorf("autoupdate=false role was reconciled: %v", got.Rules)
	}
	if got := getCRB(t, s, "system:discovery").Subjects; len(got) != 2 {
		t.Errorf("operator's subject removed: %v", got)
	}
	if got := getCR(t, s, "system:node"); len(got.Rules) == 0 {
		t.Errorf("deleted role not recreated")
	}
	if got := getCRB(t, s, "system:basic-user"); got.RoleRef.Name != "system:basic-user" {
		t.Errorf("binding's roleRef not restored: %+v", got.RoleRef)
	}
}
