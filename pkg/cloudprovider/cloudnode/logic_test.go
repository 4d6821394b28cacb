package cloudnode

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	cloud "platform.io/client/cloudprovider"
)

func TestInitialized(t *testing.T) {
	md := &cloud.InstanceMetadata{ProviderID: "sim://n1", InstanceType: "big"}
	zone := cloud.Zone{Zone: "z1", Region: "r1"}
	taints := []corev1.Taint{
		{Key: corev1.TaintNodeUninitialized, Value: "true", Effect: corev1.TaintEffectNoSchedule},
		{Key: "other", Effect: corev1.TaintEffectNoSchedule},
	}
	for _, tc := range []struct {
		name       string
		node       corev1.Node
		wantID     string
		wantLabels map[string]string
	}{
		{"fresh", corev1.Node{ObjectMeta: meta.ObjectMeta{Name: "n1"}, Spec: corev1.NodeSpec{Taints: taints}},
			"sim://n1", map[string]string{corev1.LabelTopologyZone: "z1", corev1.LabelTopologyRegion: "r1", corev1.LabelInstanceType: "big"}},
		{"provider ID kept, labels merged", corev1.Node{ObjectMeta: meta.ObjectMeta{Name: "n1", Labels: map[string]string{"a": "b"}},
			Spec: corev1.NodeSpec{ProviderID: "sim://own", Taints: taints}},
			"sim://own", map[string]string{"a": "b", corev1.LabelTopologyZone: "z1", corev1.LabelTopologyRegion: "r1", corev1.LabelInstanceType: "big"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := len(tc.node.Spec.Taints)
			got := initialized(&tc.node, md, zone)
			if got.Spec.ProviderID != tc.wantID {
				t.Errorf("providerID = %q, want %q", got.Spec.ProviderID, tc.wantID)
			}
			if diff := cmp.Diff(tc.wantLabels, got.Labels); diff != "" {
				t.Errorf("labels (-want +got):\n%s", diff)
			}
			if uninitialized(&got) || len(got.Spec.Taints) != 1 || got.Spec.Taints[0].Key != "other" {
				t.Errorf("taints = %v", got.Spec.Taints)
			}
			if len(tc.node.Spec.Taints) != before || !uninitialized(&tc.node) {
				t.Error("the input node was modified")
			}
		})
	}
}

func TestAddresses(t *testing.T) {
	n := &corev1.Node{Status: corev1.NodeStatus{Addresses: []corev1.NodeAddress{{Type: corev1.NodeHostName, Address: "own"}, {Type: corev1.NodeInternalIP, Address: "1.1.1.1"}}}}
	for _, tc := range []struct {
		name string
		md   []cloud.Address
		want []corev1.NodeAddress
	}{
		{"hostname kept", []cloud.Address{{Type: "InternalIP", Address: "10.0.0.1"}},
			[]corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: "10.0.0.1"}, {Type: corev1.NodeHostName, Address: "own"}}},
		{"provider hostname wins", []cloud.Address{{Type: "InternalIP", Address: "10.0.0.1"}, {Type: "Hostname", Address: "cloud"}},
			[]corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: "10.0.0.1"}, {Type: corev1.NodeHostName, Address: "cloud"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, addresses(n, &cloud.InstanceMetadata{Addresses: tc.md})); diff != "" {
				t.Errorf("addresses (-want +got):\n%s", diff)
			}
		})
	}
}
