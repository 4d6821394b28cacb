package controlplane

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/platform/pkg/apiserver/validation/field"
)

func subset(port int32, ips ...string) corev1.EndpointSubset {
	s := corev1.EndpointSubset{Ports: []corev1.EndpointPort{{Name: "https", Port: port, Protocol: corev1.ProtocolTCP}}}
	for _, ip := range ips {
		s.Addresses = append(s.Addresses, corev1.EndpointAddress{IP: ip})
	}
	return s
}

func TestSubsets(t *testing.T) {
	cases := []struct {
		name    string
		records []Record
		want    []corev1.EndpointSubset
	}{
		{"none", nil, nil},
		{"one", []Record{{"10.0.0.1", 6443}}, []corev1.EndpointSubset{subset(6443, "10.0.0.1")}},
		{"sorted by address, not text", []Record{{"10.0.0.10", 6443}, {"10.0.0.9", 6443}, {"10.0.0.2", 6443}},
			[]corev1.EndpointSubset{subset(6443, "10.0.0.2", "10.0.0.9", "10.0.0.10")}},
		{"a subset per port", []Record{{"10.0.0.2", 8443}, {"10.0.0.1", 6443}, {"10.0.0.3", 8443}},
			[]corev1.EndpointSubset{subset(6443, "10.0.0.1"), subset(8443, "10.0.0.2", "10.0.0.3")}},
		{"duplicates dropped", []Record{{"10.0.0.1", 6443}, {"10.0.0.1", 6443}}, []corev1.EndpointSubset{subset(6443, "10.0.0.1")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, subsets(tc.records)); diff != "" {
				t.Errorf("subsets (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDropLoopback(t *testing.T) {
	invalid := func(path string, v any) *field.Error {
		return &field.Error{Type: field.TypeInvalid, Field: path, BadValue: v, Detail: "x"}
	}
	cases := []struct {
		name string
		in   field.ErrorList
		kept int
	}{
		{"loopback address dropped", field.ErrorList{invalid("subsets[0].addresses[1].ip", "127.0.0.2")}, 0},
		{"loopback not-ready address dropped", field.ErrorList{invalid("subsets[2].notReadyAddresses[0].ip", "::1")}, 0},
		{"other invalid address kept", field.ErrorList{invalid("subsets[0].addresses[0].ip", "169.254.1.1")}, 1},
		{"loopback elsewhere kept", field.ErrorList{invalid("subsets[0].addresses[0].hostname", "127.0.0.1")}, 1},
		{"other error type kept", field.ErrorList{{Type: field.TypeRequired, Field: "subsets[0].addresses[0].ip", BadValue: "127.0.0.1"}}, 1},
		{"mixed", field.ErrorList{invalid("subsets[0].addresses[0].ip", "127.0.0.1"), invalid("metadata.name", "x")}, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := dropLoopback(tc.in); len(got) != tc.kept {
				t.Errorf("kept %d errors (%v), want %d", len(got), got, tc.kept)
			}
		})
	}
}
