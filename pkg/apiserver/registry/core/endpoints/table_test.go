package endpoints

import (
	"testing"

	corev1 "platform.io/client/api/core/v1"
)

func TestFormatEndpoints(t *testing.T) {
	addrs := func(ips ...string) []corev1.EndpointAddress {
		var out []corev1.EndpointAddress
		for _, ip := range ips {
			out = append(out, corev1.EndpointAddress{IP: ip})
		}
		return out
	}
	cases := []struct {
		name    string
		subsets []corev1.EndpointSubset
		want    string
	}{
		{"none", nil, "<none>"},
		{"one", []corev1.EndpointSubset{{Addresses: addrs("10.0.0.1"), Ports: []corev1.EndpointPort{{Port: 80}}}}, "10.0.0.1:80"},
		{"ipv6", []corev1.EndpointSubset{{Addresses: addrs("fd00::1"), Ports: []corev1.EndpointPort{{Port: 80}}}}, "[fd00::1]:80"},
		{"headless", []corev1.EndpointSubset{{Addresses: addrs("10.0.0.1", "10.0.0.2")}}, "10.0.0.1,10.0.0.2"},
		{"more", []corev1.EndpointSubset{{Addresses: addrs("10.0.0.1", "10.0.0.2", "10.0.0.3"), Ports: []corev1.EndpointPort{{Port: 80}, {Port: 443}}}},
			"10.0.0.1:80,10.0.0.2:80,10.0.0.3:80 + 3 more..."},
		{"not ready only", []corev1.EndpointSubset{{NotReadyAddresses: addrs("10.0.0.1"), Ports: []corev1.EndpointPort{{Port: 80}}}}, ""},
	}
	for _, c := range cases {
		if got := formatEndpoints(&corev1.Endpoints{Subsets: c.subsets}); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}
