package replicaset

import (
	appsv1 "platform.io/client/api/apps/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/table"
)

// tableColumns are the columns of kubectl get replicasets.
var tableColumns = &registry.TableColumns{
	Columns: []meta.TableColumnDefinition{
		table.NameColumn(),
		table.Column("Desired", table.TypeInteger, "The number of pods the replica set should run."),
		table.Column("Current", table.TypeInteger, "The number of pods the replica set runs."),
		table.Column("Ready", table.TypeInteger, "The number of its pods that are ready."),
		table.AgeColumn(),
		table.ContainersColumn(),
		table.ImagesColumn(),
		table.SelectorColumn("The labels of the pods the replica set manages."),
	},
	Row: func(obj meta.Object) []any {
		rs := obj.(*appsv1.ReplicaSet)
		var desired int32
		if rs.Spec.Replicas != nil {
			desired = *rs.Spec.Replicas
		}
		names, images := table.Containers(rs.Spec.Template.Spec.Containers)
		return []any{
			rs.Name, int64(desired), int64(rs.Status.Replicas), int64(rs.Status.ReadyReplicas), table.Age(&rs.ObjectMeta),
			names, images, table.Selector(rs.Spec.Selector),
		}
	},
}
