package service

import (
	"maps"
	"slices"
	"strings"

	corev1 "platform.io/client/api/core/v1"
	cloud "platform.io/client/cloudprovider"
)

// wantsLoadBalancer reports whether the loop should keep a load balancer
// for svc: a LoadBalancer Service not being deleted and not handed to
// another implementation by spec.loadBalancerClass.
func wantsLoadBalancer(svc *corev1.Service) bool {
	return svc.DeletionTimestamp == nil && svc.Spec.Type == corev1.ServiceTypeLoadBalancer && svc.Spec.LoadBalancerClass == nil
}

// ours reports whether the loop has a load balancer to clean up for svc:
// it adds its finalizer before it creates one.
func ours(svc *corev1.Service) bool {
	return slices.Contains(svc.Finalizers, corev1.FinalizerLoadBalancerCleanup)
}

// toCloud is what the provider is told of svc.
func toCloud(svc *corev1.Service) *cloud.Service {
	out := &cloud.Service{Namespace: svc.Namespace, Name: svc.Name, UID: string(svc.UID),
		LoadBalancerIP: svc.Spec.LoadBalancerIP, SourceRanges: svc.Spec.LoadBalancerSourceRanges,
		Annotations: maps.Clone(svc.Annotations)}
	for _, p := range svc.Spec.Ports {
		proto := string(p.Protocol)
		if proto == "" {
			proto = string(corev1.ProtocolTCP)
		}
		out.Ports = append(out.Ports, cloud.ServicePort{Name: p.Name, Protocol: proto, Port: p.Port, NodePort: p.NodePort})
	}
	return out
}

// backends are the nodes a load balancer sends traffic to: ready nodes
// not labelled out of external load balancers, sorted by name.
func backends(nodes []*corev1.Node) []cloud.Node {
	var out []cloud.Node
	for _, n := range nodes {
		if _, excluded := n.Labels[corev1.LabelExcludeFromExternalLoadBalancers]; excluded || n.DeletionTimestamp != nil || !ready(n) {
			continue
		}
		out = append(out, cloud.Node{Name: n.Name, ProviderID: n.Spec.ProviderID})
	}
	slices.SortFunc(out, func(a, b cloud.Node) int { return strings.Compare(a.Name, b.Name) })
	return out
}

func ready(n *corev1.Node) bool {
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// ingress is the API form of a provider's status.
func ingress(st *cloud.LoadBalancerStatus) corev1.LoadBalancerStatus {
	var out corev1.LoadBalancerStatus
	if st == nil {
		return out
	}
	for _, in := range st.Ingress {
		out.Ingress = append(out.Ingress, corev1.LoadBalancerIngress{IP: in.IP, Hostname: in.Hostname})
	}
	return out
}

// sameIngress compares the addresses of two statuses.
func sameIngress(a, b corev1.LoadBalancerStatus) bool {
	return slices.EqualFunc(a.Ingress, b.Ingress, func(x, y corev1.LoadBalancerIngress) bool {
		return x.IP == y.IP && x.Hostname == y.Hostname
	})
}

// nodeSetChanged reports whether a node change can change backends.
func nodeSetChanged(old, cur *corev1.Node) bool {
	if old == nil || cur == nil {
		return true
	}
	_, oldEx := old.Labels[corev1.LabelExcludeFromExternalLoadBalancers]
	_, curEx := cur.Labels[corev1.LabelExcludeFromExternalLoadBalancers]
	return ready(old) != ready(cur) || oldEx != curEx || old.Spec.ProviderID != cur.Spec.ProviderID ||
		(old.DeletionTimestamp == nil) != (cur.DeletionTimestamp == nil)
}

// syncAction is what one sync of a wanted load balancer asks of the
// provider.
type syncAction int

const (
	// syncEnsure: EnsureLoadBalancer, then write the ingress.
	syncEnsure syncAction = iota
	// syncNodes: UpdateLoadBalancer with the new nodes.
	syncNodes
	// syncNothing: no call.
	syncNothing
)

// decideSync compares the service (spec, its signature; nodes, the
// backends; first, whether it lacks an ingress) with what this process
// last gave the provider (last, when known): an unchanged load balancer
// needs no call, a change of nodes only an update, anything else (a new
// leader, a new or changed service, a missing ingress) an ensure.
func decideSync(last applied, known, first bool, spec string, nodes []cloud.Node) syncAction {
	switch {
	case !known || first || last.spec != spec:
		return syncEnsure
	case slices.Equal(last.nodes, nodes):
		return syncNothing
	}
	return syncNodes
}
