package bindingtable

import (
	"fmt"
	"testing"
	"time"

	"platform.io/client/api/meta"
	rbacv1 "platform.io/client/api/rbac/v1"
)

func TestRow(t *testing.T) {
	cols := Columns(func(obj meta.Object) (*meta.ObjectMeta, rbacv1.RoleRef, []rbacv1.Subject) {
		b := obj.(*rbacv1.RoleBinding)
		return &b.ObjectMeta, b.RoleRef, b.Subjects
	})
	var names []string
	for _, c := range cols.Columns {
		names = append(names, fmt.Sprintf("%s/%d", c.Name, c.Priority))
	}
	if got := fmt.Sprint(names); got != "[Name/0 Role/0 Age/0 Users/1 Groups/1 ServiceAccounts/1]" {
		t.Errorf("columns %s", got)
	}
	b := &rbacv1.RoleBinding{
		ObjectMeta: meta.ObjectMeta{Name: "rb", CreationTimestamp: meta.NewTime(time.Now().Add(-90 * time.Second))},
		RoleRef:    rbacv1.RoleRef{Kind: "ClusterRole", Name: "view"},
		Subjects: []rbacv1.Subject{{Kind: "User", Name: "alice"}, {Kind: "User", Name: "bob"}, {Kind: "Group", Name: "dev"},
			{Kind: "ServiceAccount", Namespace: "ns", Name: "builder"}},
	}
	if got := fmt.Sprintf("%q", cols.Row(b)); got != `["rb" "ClusterRole/view" "90s" "alice, bob" "dev" "ns/builder"]` {
		t.Errorf("row %s", got)
	}
}
