package bindingtable

import (
	"strings"

	"platform.io/client/api/meta"
	rbacv1 "platform.io/client/api/rbac/v1"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/table"
)

// Parts returns the metadata, roleRef and subjects of a binding.
type Parts func(obj meta.Object) (*meta.ObjectMeta, rbacv1.RoleRef, []rbacv1.Subject)

// Columns returns the table of a binding kind.
func Columns(parts Parts) *registry.TableColumns {
	return &registry.TableColumns{
		Columns: []meta.TableColumnDefinition{
			table.NameColumn(),
			table.Column("Role", table.TypeString, "Role is the kind and name of the role granted."),
			table.AgeColumn(),
			table.Wide("Users", table.TypeString, "Users are the users the role is granted to."),
			table.Wide("Groups", table.TypeString, "Groups are the groups the role is granted to."),
			table.Wide("ServiceAccounts", table.TypeString, "ServiceAccounts are the service accounts (namespace/name) the role is granted to."),
		},
		Row: func(obj meta.Object) []any {
			m, ref, subjects := parts(obj)
			var users, groups, sas []string
			for _, s := range subjects {
				switch s.Kind {
				case rbacv1.UserKind:
					users = append(users, s.Name)
				case rbacv1.GroupKind:
					groups = append(groups, s.Name)
				case rbacv1.ServiceAccountKind:
					sas = append(sas, s.Namespace+"/"+s.Name)
				}
			}
			return []any{m.Name, ref.Kind + "/" + ref.Name, table.Age(m),
				strings.Join(users, ", "), strings.Join(groups, ", "), strings.Join(sas, ", ")}
		},
	}
}
