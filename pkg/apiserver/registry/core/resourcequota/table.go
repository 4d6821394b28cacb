package resourcequota

import (
	"fmt"
	"strings"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/table"
)

// tableColumns are upstream's columns of kubectl get resourcequotas.
var tableColumns = &registry.TableColumns{
	Columns: []meta.TableColumnDefinition{
		table.NameColumn(),
		table.AgeColumn(),
		table.Column("Request", table.TypeString, "Request represents a minimum amount of cpu/memory that a container may consume."),
		table.Column("Limit", table.TypeString, "Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node."),
	},
	Row: func(obj meta.Object) []any {
		q := obj.(*corev1.ResourceQuota)
		req, lim := usageCells(q)
		return []any{q.Name, table.Age(&q.ObjectMeta), req, lim}
	},
}

// usageCells renders "name: used/hard" for each enforced resource, the
// limits.* ones in the second cell and all others in the first.
func usageCells(q *corev1.ResourceQuota) (request, limit string) {
	var reqs, lims []string
	for _, k := range sortedNames(q.Status.Hard) {
		used, hard := q.Status.Used[k], q.Status.Hard[k]
		cell := fmt.Sprintf("%s: %s/%s", k, used.String(), hard.String())
		if strings.HasPrefix(string(k), "limits.") {
			lims = append(lims, cell)
		} else {
			reqs = append(reqs, cell)
		}
	}
	return strings.Join(reqs, ", "), strings.Join(lims, ", ")
}
