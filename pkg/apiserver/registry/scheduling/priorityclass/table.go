package priorityclass

import (
	"platform.io/client/api/meta"
	schedulingv1 "platform.io/client/api/scheduling/v1"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/table"
)

// tableColumns are the columns of kubectl get priorityclasses, as upstream
// prints them.
var tableColumns = &registry.TableColumns{
	Columns: []meta.TableColumnDefinition{
		table.NameColumn(),
		table.Column("Value", table.TypeInteger, "The priority that pods of this class receive."),
		table.Column("Global-Default", table.TypeBoolean, "Whether pods that name no class receive this class's priority."),
		table.AgeColumn(),
		table.Column("PreemptionPolicy", table.TypeString, "Whether pods of this class may preempt lower-priority pods."),
	},
	Row: func(obj meta.Object) []any {
		pc := obj.(*schedulingv1.PriorityClass)
		policy := ""
		if pc.PreemptionPolicy != nil {
			policy = string(*pc.PreemptionPolicy)
		}
		return []any{pc.Name, int64(pc.Value), pc.GlobalDefault, table.Age(&pc.ObjectMeta), policy}
	},
}
