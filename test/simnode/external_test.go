package simnode

import (
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
)

// TestExternalCloudRegistration: for an external cloud a node registers
// with the uninitialized taint and without what the cloud loops and node
// IPAM fill in; otherwise it carries them itself.
func TestExternalCloudRegistration(t *testing.T) {
	for _, tc := range []struct {
		name     string
		external bool
	}{{"own", false}, {"external", true}} {
		t.Run(tc.name, func(t *testing.T) {
			o := NewOptions()
			if tc.external {
				o.CloudProvider = "external"
			}
			cfg, err := o.Config()
			if err != nil {
				t.Fatal(err)
			}
			n := newSimNode("n-", 0, cfg.Zones).object(cfg, time.Now())
			tainted := len(n.Spec.Taints) == 1 && n.Spec.Taints[0].Key == corev1.TaintNodeUninitialized
			_, zoned := n.Labels[LabelZone]
			if tainted != tc.external || zoned == tc.external || (n.Spec.ProviderID == "") != tc.external || (n.Spec.PodCIDR == "") != tc.external {
				t.Errorf("taints %v, labels %v, providerID %q, podCIDR %q", n.Spec.Taints, n.Labels, n.Spec.ProviderID, n.Spec.PodCIDR)
			}
		})
	}
	o := NewOptions()
	o.CloudProvider = "aws"
	if _, err := o.Config(); err == nil {
		t.Error("--cloud-provider=aws accepted")
	}
}
