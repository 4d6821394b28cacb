package route

import (
	"net/netip"
	"testing"

	"github.com/google/go-cmp/cmp"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	cloud "platform.io/client/cloudprovider"
)

func TestPlan(t *testing.T) {
	cluster := netip.MustParsePrefix("10.244.0.0/16")
	nodes := []*corev1.Node{
		{ObjectMeta: meta.ObjectMeta{Name: "a"}, Spec: corev1.NodeSpec{PodCIDRs: []string{"10.244.0.0/24"}}},
		{ObjectMeta: meta.ObjectMeta{Name: "b"}, Spec: corev1.NodeSpec{PodCIDRs: []string{"10.244.1.0/24"}}},
		{ObjectMeta: meta.ObjectMeta{Name: "c"}},
	}
	routes := []cloud.Route{
		{Name: "ra", TargetNode: "a", DestinationCIDR: "10.244.0.0/24"},
		{Name: "stale", TargetNode: "gone", DestinationCIDR: "10.244.7.0/24"},
		{Name: "moved", TargetNode: "c", DestinationCIDR: "10.244.1.0/24"},
		{Name: "foreign", TargetNode: "x", DestinationCIDR: "192.168.0.0/24"},
		{Name: "wider", TargetNode: "y", DestinationCIDR: "10.0.0.0/8"},
	}
	create, remove := plan(nodes, routes, cluster)
	if diff := cmp.Diff([]cloud.Route{{TargetNode: "b", DestinationCIDR: "10.244.1.0/24"}}, create); diff != "" {
		t.Errorf("create (-want +got):\n%s", diff)
	}
	wantRemove := []cloud.Route{
		{Name: "moved", TargetNode: "c", DestinationCIDR: "10.244.1.0/24"},
		{Name: "stale", TargetNode: "gone", DestinationCIDR: "10.244.7.0/24"},
	}
	if diff := cmp.Diff(wantRemove, remove); diff != "" {
		t.Errorf("remove (-want +got):\n%s", diff)
	}
}

func TestOptionsValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    Options
		errs int
	}{
		{"defaults", *NewOptions(), 0},
		{"allocate without cluster CIDR", Options{ReconciliationPeriod: 1, ConfigureCloudRoutes: true, AllocateNodeCIDRs: true}, 1},
		{"allocate, routes off", Options{ReconciliationPeriod: 1, AllocateNodeCIDRs: true}, 0},
		{"bad CIDR", Options{ReconciliationPeriod: 1, ClusterCIDR: "10.0.0.0"}, 1},
		{"zero period", Options{AllocateNodeCIDRs: true, ConfigureCloudRoutes: true, ClusterCIDR: "10.0.0.0/8"}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if errs := tc.o.Validate(); len(errs) != tc.errs {
				t.Errorf("Validate = %v, want %d errors", errs, tc.errs)
			}
		})
	}
}
