package node

import (
	"slices"
	"strings"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/table"
)

// Role labels: node-role.<domain>/<role> (any value) or <domain>/role=<role>,
// in the platform's domain and in upstream's, which node tooling sets.
var (
	roleLabelPrefixes = []string{"node-role.platform.io/", "node-role.kubernetes.io/"}
	roleLabelKeys     = []string{"platform.io/role", "kubernetes.io/role"}
)

// tableColumns are the columns of kubectl get nodes.
var tableColumns = &registry.TableColumns{
	Columns: []meta.TableColumnDefinition{
		table.NameColumn(),
		table.Column("Status", table.TypeString, "The node's readiness, and whether scheduling on it is disabled."),
		table.Column("Roles", table.TypeString, "The roles the node's labels give it."),
		table.AgeColumn(),
		table.Column("Version", table.TypeString, "The version of the node agent."),
		table.Wide("Internal-IP", table.TypeString, "The node's first internal address."),
		table.Wide("External-IP", table.TypeString, "The node's first external address."),
		table.Wide("OS-Image", table.TypeString, "The operating system image the node reports."),
		table.Wide("Kernel-Version", table.TypeString, "The kernel version the node reports."),
		table.Wide("Container-Runtime", table.TypeString, "The container runtime and its version."),
	},
	Row: func(obj meta.Object) []any { return tableRow(obj.(*corev1.Node)) },
}

func tableRow(n *corev1.Node) []any {
	info := n.Status.NodeInfo
	return []any{
		n.Name, nodeStatus(n), table.OrNone(strings.Join(roles(n), ",")), table.Age(&n.ObjectMeta), info.KubeletVersion,
		address(n, corev1.NodeInternalIP), address(n, corev1.NodeExternalIP),
		orUnknown(info.OSImage), orUnknown(info.KernelVersion), orUnknown(info.ContainerRuntimeVersion),
	}
}

// nodeStatus is Ready, NotReady or Unknown (no Ready condition), with
// SchedulingDisabled added for a cordoned node.
func nodeStatus(n *corev1.Node) string {
	status := "Unknown"
	for _, c := range n.Status.Conditions {
		if c.Type != corev1.NodeReady {
			continue
		}
		status = "NotReady"
		if c.Status == corev1.ConditionTrue {
			status = "Ready"
		}
	}
	if n.Spec.Unschedulable {
		status += ",SchedulingDisabled"
	}
	return status
}

// roles returns the node's roles, sorted and without repeats.
func roles(n *corev1.Node) []string {
	var out []string
	for k, v := range n.Labels {
		for _, p := range roleLabelPrefixes {
			if role, ok := strings.CutPrefix(k, p); ok && role != "" {
				out = append(out, role)
			}
		}
		if slices.Contains(roleLabelKeys, k) && v != "" {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// address returns the node's first address of type t, or None.
func address(n *corev1.Node, t corev1.NodeAddressType) string {
	for _, a := range n.Status.Addresses {
		if a.Type == t {
			return a.Address
		}
	}
	return table.None
}

func orUnknown(s string) string {
	if s == "" {
		return "<unknown>"
	}
	return s
}
