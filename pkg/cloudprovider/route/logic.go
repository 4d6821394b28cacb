package route

import (
	"net/netip"
	"slices"
	"strings"

	corev1 "platform.io/client/api/core/v1"
	cloud "platform.io/client/cloudprovider"
)

type routeKey struct{ node, cidr string }

// plan compares the nodes' pod CIDRs with the cloud's routes: the routes to
// create, sorted, and the routes to delete, those inside cluster (the
// cluster CIDR) that no node wants. Routes outside cluster are someone
// else's and stay.
func plan(nodes []*corev1.Node, routes []cloud.Route, cluster netip.Prefix) (create, remove []cloud.Route) {
	want := map[routeKey]bool{}
	for _, n := range nodes {
		for _, c := range n.Spec.PodCIDRs {
			want[routeKey{n.Name, c}] = true
		}
	}
	have := map[routeKey]bool{}
	for _, r := range routes {
		k := routeKey{r.TargetNode, r.DestinationCIDR}
		have[k] = true
		if !want[k] && inside(r.DestinationCIDR, cluster) {
			remove = append(remove, r)
		}
	}
	for k := range want {
		if !have[k] {
			create = append(create, cloud.Route{TargetNode: k.node, DestinationCIDR: k.cidr})
		}
	}
	cmp := func(a, b cloud.Route) int {
		return strings.Compare(a.TargetNode+" "+a.DestinationCIDR, b.TargetNode+" "+b.DestinationCIDR)
	}
	slices.SortFunc(create, cmp)
	slices.SortFunc(remove, cmp)
	return create, remove
}

// inside reports whether cidr lies within cluster.
func inside(cidr string, cluster netip.Prefix) bool {
	p, err := netip.ParsePrefix(cidr)
	return err == nil && cluster.Bits() <= p.Bits() && cluster.Contains(p.Addr())
}

// nameHint is the name a new route is offered: the node's and the CIDR's.
func nameHint(cluster string, r cloud.Route) string {
	return cluster + "-" + r.TargetNode + "-" + strings.NewReplacer("/", "-", ":", "-", ".", "-").Replace(r.DestinationCIDR)
}
