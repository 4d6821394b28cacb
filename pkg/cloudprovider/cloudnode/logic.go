package cloudnode

import (
	"maps"
	"slices"

	corev1 "platform.io/client/api/core/v1"
	cloud "platform.io/client/cloudprovider"
)

// uninitialized reports whether the node carries the uninitialized taint.
func uninitialized(n *corev1.Node) bool {
	return slices.ContainsFunc(n.Spec.Taints, func(t corev1.Taint) bool { return t.Key == corev1.TaintNodeUninitialized })
}

// addresses are the node addresses the provider reports, keeping the
// node's own Hostname address when the provider reports none.
func addresses(n *corev1.Node, md *cloud.InstanceMetadata) []corev1.NodeAddress {
	var out []corev1.NodeAddress
	hasHostname := false
	for _, a := range md.Addresses {
		t := corev1.NodeAddressType(a.Type)
		hasHostname = hasHostname || t == corev1.NodeHostName
		out = append(out, corev1.NodeAddress{Type: t, Address: a.Address})
	}
	if !hasHostname {
		for _, a := range n.Status.Addresses {
			if a.Type == corev1.NodeHostName {
				out = append(out, a)
			}
		}
	}
	return out
}

// initialized returns the node's spec and metadata as the loop leaves
// them: the provider ID (kept when set), the zone, region and
// instance-type labels, and no uninitialized taint.
func initialized(n *corev1.Node, md *cloud.InstanceMetadata, zone cloud.Zone) corev1.Node {
	out := *n
	out.Labels = maps.Clone(n.Labels)
	if out.Labels == nil {
		out.Labels = map[string]string{}
	}
	if out.Spec.ProviderID == "" {
		out.Spec.ProviderID = md.ProviderID
	}
	for k, v := range map[string]string{
		corev1.LabelTopologyZone:   zone.Zone,
		corev1.LabelTopologyRegion: zone.Region,
		corev1.LabelInstanceType:   md.InstanceType,
	} {
		if v != "" {
			out.Labels[k] = v
		}
	}
	out.Spec.Taints = slices.DeleteFunc(slices.Clone(n.Spec.Taints), func(t corev1.Taint) bool { return t.Key == corev1.TaintNodeUninitialized })
	return out
}
