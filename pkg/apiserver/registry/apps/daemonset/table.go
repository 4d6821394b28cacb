package daemonset

import (
	appsv1 "platform.io/client/api/apps/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/table"
)

// tableColumns are the columns of kubectl get daemonsets.
var tableColumns = &registry.TableColumns{
	Columns: []meta.TableColumnDefinition{
		table.NameColumn(),
		table.Column("Desired", table.TypeInteger, "The number of nodes that should run the daemon pod."),
		table.Column("Current", table.TypeInteger, "The number of nodes that run at least one daemon pod."),
		table.Column("Ready", table.TypeInteger, "The number of nodes whose daemon pod is ready."),
		table.Column("Up-to-date", table.TypeInteger, "The number of nodes that run the latest daemon pod."),
		table.Column("Available", table.TypeInteger, "The number of nodes whose daemon pod is available."),
		table.Column("Node Selector", table.TypeString, "The labels a node needs to run the daemon pod."),
		table.AgeColumn(),
		table.ContainersColumn(),
		table.ImagesColumn(),
		table.SelectorColumn("The labels of the pods the daemon set manages."),
	},
	Row: func(obj meta.Object) []any {
		ds := obj.(*appsv1.DaemonSet)
		st := &ds.Status
		names, images := table.Containers(ds.Spec.Template.Spec.Containers)
		return []any{
			ds.Name, int64(st.DesiredNumberScheduled), int64(st.CurrentNumberScheduled), int64(st.NumberReady),
			int64(st.UpdatedNumberScheduled), int64(st.NumberAvailable), table.Labels(ds.Spec.Template.Spec.NodeSelector),
			table.Age(&ds.ObjectMeta), names, images, table.Selector(ds.Spec.Selector),
		}
	},
}
