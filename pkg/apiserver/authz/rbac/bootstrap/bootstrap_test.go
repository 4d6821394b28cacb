package bootstrap

import (
	"slices"
	"testing"

	rbacv1 "platform.io/client/api/rbac/v1"

	"platform.io/platform/cmd/controller-manager/app"
	"platform.io/platform/pkg/apiserver/authz"
	"platform.io/platform/pkg/apiserver/authz/rbac"
)

func roleNamed(t *testing.T, p Policy, name string) rbacv1.ClusterRole {
	t.Helper()
	for _, r := range p.ClusterRoles {
		if r.Name == name {
			return r
		}
	}
	t.Fatalf("no ClusterRole %s", name)
	return rbacv1.ClusterRole{}
}

func allows(rules []rbacv1.PolicyRule, n Need) bool {
	a := authz.Attributes{Verb: n.Verb, ResourceRequest: n.Path == "", APIGroup: n.Group, Resource: n.Resource,
		Subresource: n.Subresource, Namespace: n.Namespace, Name: n.Name, Path: n.Path}
	for i := range rules {
		if rbac.RuleAllows(&a, &rules[i]) {
			return true
		}
	}
	return false
}

// TestRolesCoverNeeds checks each daemon's and loop's role against the
// requests it makes.
func TestRolesCoverNeeds(t *testing.T) {
	p := Default()
	for name, list := range Needs() {
		if len(list) == 0 {
			t.Errorf("%s: no needs listed", name)
		}
		r := roleNamed(t, p, name)
		for _, n := range list {
			if !allows(r.Rules, n) {
				t.Errorf("%s does not allow %+v", name, n)
			}
		}
	}
}

// TestRolesAreNarrow checks the daemons cannot do what they never need.
func TestRolesAreNarrow(t *testing.T) {
	p := Default()
	for _, tc := range []struct {
		role string
		n    Need
	}{
		{SchedulerUser, need("create", legacy, "pods")},
		{SchedulerUser, need("get", legacy, "secrets")},
		{SchedulerUser, Need{Verb: "update", Group: coord, Resource: "leases", Namespace: SystemNamespace, Name: managerLock}},
		{SchedulerUser, need("create", rbacG, "clusterrolebindings")},
		{ControllerManagerUser, need("escalate", rbacG, "clusterroles")},
		{ControllerManagerUser, need("impersonate", legacy, "users")},
		{"system:controller:replicaset-controller", need("delete", apps, "deployments")},
		{"system:controller:endpoint-controller", need("get", legacy, "secrets")},
		{"system:controller:root-ca-cert-publisher", need("get", legacy, "secrets")},
		{"system:controller:root-ca-cert-publisher", need("delete", legacy, "configmaps")},
		{CloudControllerManagerUser, need("delete", legacy, "pods")},
		{"view", need("get", legacy, "secrets")},
		// As upstream, priority classes are cluster-admin's only.
		{"system:aggregate-to-view", need("list", "scheduling.platform.io", "priorityclasses")},
		{"system:aggregate-to-edit", need("create", "scheduling.platform.io", "priorityclasses")},
		{"system:aggregate-to-admin", need("create", "scheduling.platform.io", "priorityclasses")},
		{SchedulerUser, need("create", "scheduling.platform.io", "priorityclasses")},
	} {
		if allows(roleNamed(t, p, tc.role).Rules, tc.n) {
			t.Errorf("%s allows %+v", tc.role, tc.n)
		}
	}
}

// TestEveryLoopHasARole checks Controllers against the controller
// manager's table.
func TestEveryLoopHasARole(t *testing.T) {
	var loops []string
	for _, d := range app.Descriptors() {
		loops = append(loops, d.Name)
		if !slices.ContainsFunc(Controllers, func(c Controller) bool { return c.Loop == d.Name }) {
			t.Errorf("loop %s has no role", d.Name)
		}
	}
	for _, c := range Controllers {
		if !slices.Contains(loops, c.Loop) {
			t.Errorf("role for unknown loop %s", c.Loop)
		}
		if got := app.ServiceAccount(c.Loop); got != c.Account {
			t.Errorf("loop %s runs as service account %q with --use-service-account-credentials, its role is bound to %q", c.Loop, got, c.Account)
		}
	}
	p := Default()
	for _, c := range Controllers {
		want := rbac.ServiceAccountUser(SystemNamespace, c.Account)
		found := false
		for _, b := range p.ClusterRoleBindings {
			if b.RoleRef.Name == "system:controller:"+c.Account && len(b.Subjects) == 1 &&
				rbac.ServiceAccountUser(b.Subjects[0].Namespace, b.Subjects[0].Name) == want {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no binding to service account %s", c.Loop, want)
		}
	}
}

func TestDefaultBindings(t *testing.T) {
	p := Default()
	want := map[string][]rbacv1.Subject{
		"cluster-admin":             {group(SystemMasters)},
		"system:discovery":          {group(AllAuthenticated)},
		"system:basic-user":         {group(AllAuthenticated)},
		"system:public-info-viewer": {group(AllAuthenticated), group(AllUnauthenticated)},
		NodeCommonRole:              {group(NodesGroup)},
		MonitoringGroup:             {group(MonitoringGroup)},
		SchedulerUser:               {user(SchedulerUser)},
		ControllerManagerUser:       {user(ControllerManagerUser)},
		CloudControllerManagerUser:  {user(CloudControllerManagerUser)},
	}
	for name, subjects := range want {
		i := slices.IndexFunc(p.ClusterRoleBindings, func(b rbacv1.ClusterRoleBinding) bool { return b.Name == name })
		if i < 0 || !slices.Equal(p.ClusterRoleBindings[i].Subjects, subjects) || p.ClusterRoleBindings[i].RoleRef.Name != name {
			t.Errorf("binding %s missing or wrong", name)
		}
	}
	for _, r := range []string{"admin", "edit", "view"} {
		if roleNamed(t, p, r).AggregationRule == nil {
			t.Errorf("%s is not aggregated", r)
		}
	}
	for _, r := range p.ClusterRoles {
		if r.Annotations[rbacv1.AutoUpdateAnnotationKey] != "true" {
			t.Errorf("%s lacks the autoupdate annotation", r.Name)
		}
	}
}
