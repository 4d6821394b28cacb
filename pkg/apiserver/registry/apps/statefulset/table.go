package statefulset

import (
	"fmt"

	appsv1 "platform.io/client/api/apps/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/table"
)

// tableColumns are the columns of kubectl get statefulsets.
var tableColumns = &registry.TableColumns{
	Columns: []meta.TableColumnDefinition{
		table.NameColumn(),
		table.Column("Ready", table.TypeString, "Ready pods out of the desired replicas."),
		table.AgeColumn(),
		table.ContainersColumn(),
		table.ImagesColumn(),
	},
	Row: func(obj meta.Object) []any {
		ss := obj.(*appsv1.StatefulSet)
		var desired int32
		if ss.Spec.Replicas != nil {
			desired = *ss.Spec.Replicas
		}
		names, images := table.Containers(ss.Spec.Template.Spec.Containers)
		return []any{ss.Name, fmt.Sprintf("%d/%d", ss.Status.ReadyReplicas, desired), table.Age(&ss.ObjectMeta), names, images}
	},
}
