package namespace

import (
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/table"
)

// tableColumns are the columns of kubectl get namespaces.
var tableColumns = &registry.TableColumns{
	Columns: []meta.TableColumnDefinition{
		table.NameColumn(),
		table.Column("Status", table.TypeString, "The namespace's phase: Active, or Terminating while it is deleted."),
		table.AgeColumn(),
	},
	Row: func(obj meta.Object) []any {
		ns := obj.(*corev1.Namespace)
		return []any{ns.Name, string(ns.Status.Phase), table.Age(&ns.ObjectMeta)}
	},
}
