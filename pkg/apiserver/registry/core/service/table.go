package service

import (
	"slices"
	"strconv"
	"strings"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/table"
)

// tableColumns are the columns of kubectl get services.
var tableColumns = &registry.TableColumns{
	Columns: []meta.TableColumnDefinition{
		table.NameColumn(),
		table.Column("Type", table.TypeString, "How the service is exposed: ClusterIP, NodePort, LoadBalancer or ExternalName."),
		table.Column("Cluster-IP", table.TypeString, "The service's virtual IP inside the cluster, or None for a headless service."),
		table.Column("External-IP", table.TypeString, "The addresses the service is reachable at from outside the cluster."),
		table.Column("Port(s)", table.TypeString, "The service's ports, with their node ports, and protocols."),
		table.AgeColumn(),
		table.SelectorColumn("The labels of the pods the service routes traffic to."),
	},
	Row: func(obj meta.Object) []any { return tableRow(obj.(*corev1.Service)) },
}

func tableRow(s *corev1.Service) []any {
	clusterIP := s.Spec.ClusterIP
	if len(s.Spec.ClusterIPs) > 0 {
		clusterIP = s.Spec.ClusterIPs[0]
	}
	return []any{
		s.Name, string(s.Spec.Type), table.OrNone(clusterIP), externalIP(s), table.OrNone(ports(s.Spec.Ports)),
		table.Age(&s.ObjectMeta), table.Labels(s.Spec.Selector),
	}
}

// externalIP lists where the service is reachable from outside: its
// external IPs and, for a load balancer, the balancer's addresses
// ("<pending>" until it has some); an ExternalName service shows its name.
func externalIP(s *corev1.Service) string {
	switch s.Spec.Type {
	case corev1.ServiceTypeClusterIP, corev1.ServiceTypeNodePort:
		return table.OrNone(strings.Join(s.Spec.ExternalIPs, ","))
	case corev1.ServiceTypeLoadBalancer:
		all := append(loadBalancerAddresses(s), s.Spec.ExternalIPs...)
		if len(all) == 0 {
			return "<pending>"
		}
		return strings.Join(all, ",")
	case corev1.ServiceTypeExternalName:
		return s.Spec.ExternalName
	}
	return "<unknown>"
}

// loadBalancerAddresses returns the balancer's ingress IPs (or host names
// where there is no IP), sorted and without repeats.
func loadBalancerAddresses(s *corev1.Service) []string {
	var out []string
	for _, in := range s.Status.LoadBalancer.Ingress {
		switch {
		case in.IP != "":
			out = append(out, in.IP)
		case in.Hostname != "":
			out = append(out, in.Hostname)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// ports renders each port as port/protocol, or port:nodePort/protocol.
func ports(ps []corev1.ServicePort) string {
	out := make([]string, len(ps))
	for i, p := range ps {
		s := strconv.Itoa(int(p.Port))
		if p.NodePort > 0 {
			s += ":" + strconv.Itoa(int(p.NodePort))
		}
		out[i] = s + "/" + string(p.Protocol)
	}
	return strings.Join(out, ",")
}
