package endpoints

import (
	"net"
	"strconv"
	"strings"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/table"
)

// shownEndpoints is how many addresses the Endpoints cell lists before
// summing up the rest.
const shownEndpoints = 3

// tableColumns are the columns of kubectl get endpoints.
var tableColumns = &registry.TableColumns{
	Columns: []meta.TableColumnDefinition{
		table.NameColumn(),
		table.Column("Endpoints", table.TypeString, "The ready addresses, with their ports, behind the service."),
		table.AgeColumn(),
	},
	Row: func(obj meta.Object) []any {
		ep := obj.(*corev1.Endpoints)
		return []any{ep.Name, formatEndpoints(ep), table.Age(&ep.ObjectMeta)}
	},
}

// formatEndpoints lists the first ready addresses as ip:port (or the bare
// IP in a subset without ports) and counts the others: "10.0.0.1:80,
// 10.0.0.2:80,10.0.0.3:80 + 2 more...". No subsets at all is None.
func formatEndpoints(ep *corev1.Endpoints) string {
	if len(ep.Subsets) == 0 {
		return table.None
	}
	var shown []string
	total := 0
	add := func(s string) {
		total++
		if len(shown) < shownEndpoints {
			shown = append(shown, s)
		}
	}
	for _, ss := range ep.Subsets {
		if len(ss.Ports) == 0 {
			for _, a := range ss.Addresses {
				add(a.IP)
			}
			continue
		}
		for _, p := range ss.Ports {
			for _, a := range ss.Addresses {
				add(net.JoinHostPort(a.IP, strconv.Itoa(int(p.Port))))
			}
		}
	}
	out := strings.Join(shown, ",")
	if total > len(shown) {
		out += " + " + strconv.Itoa(total-len(shown)) + " more..."
	}
	return out
}
