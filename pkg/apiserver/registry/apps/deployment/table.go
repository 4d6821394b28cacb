package deployment

import (
	"fmt"

	appsv1 "platform.io/client/api/apps/v1"
	"platform.io/client/api/labels"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/table"
)

// tableColumns are the columns of kubectl get deployments.
var tableColumns = &registry.TableColumns{
	Columns: []meta.TableColumnDefinition{
		table.NameColumn(),
		table.Column("Ready", table.TypeString, "Ready pods out of the desired replicas."),
		table.Column("Up-to-date", table.TypeString, "Pods that run the latest pod template."),
		table.Column("Available", table.TypeString, "Pods that have been ready for at least minReadySeconds."),
		table.AgeColumn(),
		table.ContainersColumn(),
		table.ImagesColumn(),
		table.SelectorColumn("The labels of the pods the deployment manages."),
	},
	Row: func(obj meta.Object) []any { return tableRow(obj.(*appsv1.Deployment)) },
}

func tableRow(d *appsv1.Deployment) []any {
	var desired int32
	if d.Spec.Replicas != nil {
		desired = *d.Spec.Replicas
	}
	names, images := table.Containers(d.Spec.Template.Spec.Containers)
	return []any{
		d.Name, fmt.Sprintf("%d/%d", d.Status.ReadyReplicas, desired),
		int64(d.Status.UpdatedReplicas), int64(d.Status.AvailableReplicas), table.Age(&d.ObjectMeta),
		names, images, selector(d.Spec.Selector),
	}
}

// selector renders the deployment's selector as is: "<invalid>" when it
// does not parse, and empty when it selects everything or nothing.
func selector(sel *meta.LabelSelector) string {
	s, err := labels.FromLabelSelector(sel)
	if err != nil {
		return "<invalid>"
	}
	return s.String()
}
