package node

import (
	"testing"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry/core/corevalidation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

func TestResource(t *testing.T) {
	r := Resource()
	if r.Name != "nodes" || r.Singular != "node" || r.Kind != "Node" || r.Group != "" || r.Version != "v1" {
		t.Fatalf("bad names: %+v", r)
	}
	if r.Namespaced || !r.HasStatus || r.Strategy == nil {
		t.Fatalf("bad scope or strategy: %+v", r)
	}
	if len(r.ShortNames) != 1 || r.ShortNames[0] != "no" {
		t.Fatalf("short names = %v", r.ShortNames)
	}
	if _, ok := r.New().(*corev1.Node); !ok {
		t.Fatalf("New returned %T", r.New())
	}
	n := &corev1.Node{Spec: corev1.NodeSpec{Unschedulable: true}}
	if got := r.Fields(n)["spec.unschedulable"]; got != "true" {
		t.Fatalf("spec.unschedulable = %q", got)
	}
	if got := r.Fields(&corev1.Node{})["spec.unschedulable"]; got != "false" {
		t.Fatalf("spec.unschedulable = %q", got)
	}
}

func TestDefaults(t *testing.T) {
	n := &corev1.Node{}
	n.Status.Capacity = corev1.ResourceList{"cpu": {}, "memory": {}}
	n.Spec.PodCIDR = "10.0.0.0/24"
	Resource().Strategy.Default(n)
	if len(n.Status.Allocatable) != 2 {
		t.Errorf("allocatable = %v, want a copy of capacity", n.Status.Allocatable)
	}
	n.Status.Capacity["pods"] = n.Status.Capacity["cpu"]
	if len(n.Status.Allocatable) != 2 {
		t.Errorf("allocatable shares the capacity map")
	}
	if len(n.Spec.PodCIDRs) != 1 || n.Spec.PodCIDRs[0] != "10.0.0.0/24" {
		t.Errorf("podCIDRs = %v", n.Spec.PodCIDRs)
	}

	explicit := &corev1.Node{}
	explicit.Status.Capacity = corev1.ResourceList{"cpu": {}}
	explicit.Status.Allocatable = corev1.ResourceList{}
	explicit.Spec.PodCIDRs = []string{"10.1.0.0/24", "fd00::/64"}
	explicit.Spec.PodCIDR = "10.9.0.0/24"
	setDefaults(explicit)
	if len(explicit.Status.Allocatable) != 0 {
		t.Errorf("explicit empty allocatable was replaced: %v", explicit.Status.Allocatable)
	}
	if explicit.Spec.PodCIDR != "10.1.0.0/24" {
		t.Errorf("podCIDR = %q, want the first of podCIDRs", explicit.Spec.PodCIDR)
	}

	empty := &corev1.Node{}
	setDefaults(empty)
	if empty.Status.Allocatable != nil || empty.Spec.PodCIDRs != nil {
		t.Errorf("empty node gained defaults: %+v", empty)
	}
}

func TestPrepare(t *testing.T) {
	src := &corev1.NodeConfigSource{ConfigMap: &corev1.ConfigMapNodeConfigSource{Name: "x"}}
	n := &corev1.Node{Spec: corev1.NodeSpec{ConfigSource: src}}
	prepareForCreate(n)
	if n.Spec.ConfigSource != nil {
		t.Error("create kept configSource")
	}
	n.Spec.ConfigSource = src
	prepareForUpdate(n, &corev1.Node{})
	if n.Spec.ConfigSource != nil {
		t.Error("update added configSource")
	}
	n.Spec.ConfigSource = src
	prepareForUpdate(n, &corev1.Node{Spec: corev1.NodeSpec{ConfigSource: src}})
	if n.Spec.ConfigSource == nil {
		t.Error("update dropped configSource in use")
	}
}

func TestValidate(t *testing.T) {
	taint := func(k string, e corev1.TaintEffect) corev1.Taint { return corev1.Taint{Key: k, Effect: e} }
	cases := []struct {
		name  string
		spec  corev1.NodeSpec
		typ   field.Type
		field string
	}{
		{"empty", corev1.NodeSpec{}, "", ""},
		{"valid taints", corev1.NodeSpec{Taints: []corev1.Taint{taint("a", "NoSchedule"), taint("a", "NoExecute"), taint("example.com/b", "PreferNoSchedule")}}, "", ""},
		{"bad taint key", corev1.NodeSpec{Taints: []corev1.Taint{taint("a b", "NoSchedule")}}, field.TypeInvalid, "spec.taints[0].key"},
		{"bad taint value", corev1.NodeSpec{Taints: []corev1.Taint{{Key: "a", Value: "x y", Effect: "NoSchedule"}}}, field.TypeInvalid, "spec.taints[0].value"},
		{"missing effect", corev1.NodeSpec{Taints: []corev1.Taint{taint("a", "")}}, field.TypeRequired, "spec.taints[0].effect"},
		{"bad effect", corev1.NodeSpec{Taints: []corev1.Taint{taint("a", "Never")}}, field.TypeNotSupported, "spec.taints[0].effect"},
		{"duplicate taint", corev1.NodeSpec{Taints: []corev1.Taint{taint("a", "NoSchedule"), taint("a", "NoSchedule")}}, field.TypeDuplicate, "spec.taints[1]"},
		{"dual-stack cidrs", corev1.NodeSpec{PodCIDRs: []string{"10.0.0.0/24", "fd00::/64"}}, "", ""},
		{"bad cidr", corev1.NodeSpec{PodCIDRs: []string{"10.0.0.0"}}, field.TypeInvalid, "spec.podCIDRs[0]"},
		{"same family", corev1.NodeSpec{PodCIDRs: []string{"10.0.0.0/24", "10.1.0.0/24"}}, field.TypeInvalid, "spec.podCIDRs"},
		{"duplicate cidr", corev1.NodeSpec{PodCIDRs: []string{"10.0.0.0/24", "10.0.0.0/24"}}, field.TypeDuplicate, "spec.podCIDRs[1]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := &corev1.Node{ObjectMeta: meta.ObjectMeta{Name: "n"}, Spec: c.spec}
			if msg := corevalidation.Expect(validate(n), c.typ, c.field); msg != "" {
				t.Error(msg)
			}
		})
	}
}

func TestValidateUpdate(t *testing.T) {
	cases := []struct {
		name     string
		old, new func(*corev1.Node)
		typ      field.Type
		field    string
	}{
		{"unchanged", func(n *corev1.Node) { n.Spec.PodCIDRs = []string{"10.0.0.0/24"} }, func(n *corev1.Node) { n.Spec.PodCIDRs = []string{"10.0.0.0/24"} }, "", ""},
		{"podCIDRs first set", func(*corev1.Node) {}, func(n *corev1.Node) { n.Spec.PodCIDRs = []string{"10.0.0.0/24"} }, "", ""},
		{"podCIDRs changed", func(n *corev1.Node) { n.Spec.PodCIDRs = []string{"10.0.0.0/24"} }, func(n *corev1.Node) { n.Spec.PodCIDRs = []string{"10.1.0.0/24"} }, field.TypeForbidden, "spec.podCIDRs"},
		{"podCIDRs cleared", func(n *corev1.Node) { n.Spec.PodCIDRs = []string{"10.0.0.0/24"} }, func(*corev1.Node) {}, field.TypeForbidden, "spec.podCIDRs"},
		{"providerID first set", func(*corev1.Node) {}, func(n *corev1.Node) { n.Spec.ProviderID = "aws://i-1" }, "", ""},
		{"providerID changed", func(n *corev1.Node) { n.Spec.ProviderID = "aws://i-1" }, func(n *corev1.Node) { n.Spec.ProviderID = "aws://i-2" }, field.TypeForbidden, "spec.providerID"},
		{"externalID changed", func(*corev1.Node) {}, func(n *corev1.Node) { n.Spec.DoNotUseExternalID = "x" }, field.TypeForbidden, "spec.externalID"},
		{"unschedulable and taints change", func(*corev1.Node) {}, func(n *corev1.Node) {
			n.Spec.Unschedulable = true
			n.Spec.Taints = []corev1.Taint{{Key: "a", Effect: "NoSchedule"}}
		}, "", ""},
		{"duplicate address", func(*corev1.Node) {}, func(n *corev1.Node) {
			a := corev1.NodeAddress{Type: corev1.NodeInternalIP, Address: "10.0.0.1"}
			n.Status.Addresses = []corev1.NodeAddress{a, a}
		}, field.TypeDuplicate, "status.addresses[1]"},
		{"bad taint on update", func(*corev1.Node) {}, func(n *corev1.Node) { n.Spec.Taints = []corev1.Taint{{Key: "a"}} }, field.TypeRequired, "spec.taints[0].effect"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			old, n := &corev1.Node{}, &corev1.Node{}
			c.old(old)
			c.new(n)
			if msg := corevalidation.Expect(validateUpdate(n, old), c.typ, c.field); msg != "" {
				t.Error(msg)
			}
		})
	}
}
