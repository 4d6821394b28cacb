package endpoints

import (
	"testing"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/apiserver/registry/core/corevalidation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

func TestResource(t *testing.T) {
	r := Resource()
	if r.Name != "endpoints" || r.Singular != "endpoints" || r.Kind != "Endpoints" || r.Group != "" || r.Version != "v1" {
		t.Fatalf("bad names: %+v", r)
	}
	if !r.Namespaced || r.HasStatus || !r.AllowCreateOnUpdate || r.Strategy == nil {
		t.Fatalf("bad flags: %+v", r)
	}
	if len(r.ShortNames) != 1 || r.ShortNames[0] != "ep" {
		t.Fatalf("short names = %v", r.ShortNames)
	}
	if _, ok := r.New().(*corev1.Endpoints); !ok {
		t.Fatalf("New returned %T", r.New())
	}
}

func TestDefaults(t *testing.T) {
	ep := &corev1.Endpoints{Subsets: []corev1.EndpointSubset{{Ports: []corev1.EndpointPort{{Port: 80}, {Port: 53, Protocol: corev1.ProtocolUDP}}}}}
	Resource().Strategy.Default(ep)
	if got := ep.Subsets[0].Ports[0].Protocol; got != corev1.ProtocolTCP {
		t.Errorf("protocol = %q, want TCP", got)
	}
	if got := ep.Subsets[0].Ports[1].Protocol; got != corev1.ProtocolUDP {
		t.Errorf("explicit protocol replaced by %q", got)
	}
}

func TestValidate(t *testing.T) {
	addr := func(ip string) []corev1.EndpointAddress { return []corev1.EndpointAddress{{IP: ip}} }
	port := func(name string, n int32, proto corev1.Protocol) corev1.EndpointPort {
		return corev1.EndpointPort{Name: name, Port: n, Protocol: proto}
	}
	node, badNode := "node-1", "Node_1"
	cases := []struct {
		name  string
		ss    corev1.EndpointSubset
		typ   field.Type
		field string
	}{
		{"valid", corev1.EndpointSubset{Addresses: addr("10.1.2.3"), Ports: []corev1.EndpointPort{port("http", 80, "TCP"), port("dns", 53, "UDP")}}, "", ""},
		{"not ready only, no ports", corev1.EndpointSubset{NotReadyAddresses: addr("fd00::1")}, "", ""},
		{"no addresses", corev1.EndpointSubset{Ports: []corev1.EndpointPort{port("", 80, "TCP")}}, field.TypeRequired, "subsets[0]"},
		{"bad ip", corev1.EndpointSubset{Addresses: addr("10.1.2")}, field.TypeInvalid, "subsets[0].addresses[0].ip"},
		{"loopback", corev1.EndpointSubset{Addresses: addr("127.0.0.1")}, field.TypeInvalid, "subsets[0].addresses[0].ip"},
		{"link-local", corev1.EndpointSubset{NotReadyAddresses: addr("169.254.169.254")}, field.TypeInvalid, "subsets[0].notReadyAddresses[0].ip"},
		{"unspecified", corev1.EndpointSubset{Addresses: addr("::")}, field.TypeInvalid, "subsets[0].addresses[0].ip"},
		{"bad hostname", corev1.EndpointSubset{Addresses: []corev1.EndpointAddress{{IP: "10.0.0.1", Hostname: "a.b"}}}, field.TypeInvalid, "subsets[0].addresses[0].hostname"},
		{"node name", corev1.EndpointSubset{Addresses: []corev1.EndpointAddress{{IP: "10.0.0.1", NodeName: &node}}}, "", ""},
		{"bad node name", corev1.EndpointSubset{Addresses: []corev1.EndpointAddress{{IP: "10.0.0.1", NodeName: &badNode}}}, field.TypeInvalid, "subsets[0].addresses[0].nodeName"},
		{"port zero", corev1.EndpointSubset{Addresses: addr("10.0.0.1"), Ports: []corev1.EndpointPort{port("", 0, "TCP")}}, field.TypeInvalid, "subsets[0].ports[0].port"},
		{"port too big", corev1.EndpointSubset{Addresses: addr("10.0.0.1"), Ports: []corev1.EndpointPort{port("", 65536, "TCP")}}, field.TypeInvalid, "subsets[0].ports[0].port"},
		{"no protocol", corev1.EndpointSubset{Addresses: addr("10.0.0.1"), Ports: []corev1.EndpointPort{port("", 80, "")}}, field.TypeRequired, "subsets[0].ports[0].protocol"},
		{"bad protocol", corev1.EndpointSubset{Addresses: addr("10.0.0.1"), Ports: []corev1.EndpointPort{port("", 80, "ICMP")}}, field.TypeNotSupported, "subsets[0].ports[0].protocol"},
		{"unnamed among several", corev1.EndpointSubset{Addresses: addr("10.0.0.1"), Ports: []corev1.EndpointPort{port("a", 80, "TCP"), port("", 81, "TCP")}}, field.TypeRequired, "subsets[0].ports[1].name"},
		{"duplicate name", corev1.EndpointSubset{Addresses: addr("10.0.0.1"), Ports: []corev1.EndpointPort{port("a", 80, "TCP"), port("a", 81, "TCP")}}, field.TypeDuplicate, "subsets[0].ports[1].name"},
		{"bad name", corev1.EndpointSubset{Addresses: addr("10.0.0.1"), Ports: []corev1.EndpointPort{port("A_B", 80, "TCP")}}, field.TypeInvalid, "subsets[0].ports[0].name"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ep := &corev1.Endpoints{Subsets: []corev1.EndpointSubset{c.ss}}
			if msg := corevalidation.Expect(validate(ep), c.typ, c.field); msg != "" {
				t.Error(msg)
			}
			if msg := corevalidation.Expect(Resource().Strategy.ValidateUpdate(t.Context(), ep, &corev1.Endpoints{}), c.typ, c.field); msg != "" {
				t.Error("update:", msg)
			}
		})
	}
}
