package lease

import (
	coordinationv1 "platform.io/client/api/coordination/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/table"
)

// tableColumns are the columns of kubectl get leases.
var tableColumns = &registry.TableColumns{
	Columns: []meta.TableColumnDefinition{
		table.NameColumn(),
		table.Column("Holder", table.TypeString, "The identity of the lease's current holder."),
		table.AgeColumn(),
	},
	Row: func(obj meta.Object) []any {
		l := obj.(*coordinationv1.Lease)
		holder := ""
		if l.Spec.HolderIdentity != nil {
			holder = *l.Spec.HolderIdentity
		}
		return []any{l.Name, holder, table.Age(&l.ObjectMeta)}
	},
}
