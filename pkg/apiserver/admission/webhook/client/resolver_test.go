package client_test

import (
	"context"
	"errors"
	"testing"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/admission/webhook/client"
	"platform.io/platform/pkg/apiserver/admission/webhook/webhooktest"
)

func TestStoreResolver(t *testing.T) {
	env := webhooktest.NewEnv(t)
	svc := meta.GroupVersionResource{Version: "v1", Resource: "services"}
	eps := meta.GroupVersionResource{Version: "v1", Resource: "endpoints"}
	env.Create(t, meta.GroupVersionResource{Version: "v1", Resource: "namespaces"}, &corev1.Namespace{ObjectMeta: meta.ObjectMeta{Name: "hooks"}})
	for _, name := range []string{"plain", "notready", "noendpoints"} {
		env.Create(t, svc, &corev1.Service{ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "hooks"},
			Spec: corev1.ServiceSpec{Ports: []corev1.ServicePort{{Port: 443, Protocol: corev1.ProtocolTCP}}}})
	}
	env.Create(t, eps, &corev1.Endpoints{ObjectMeta: meta.ObjectMeta{Name: "plain", Namespace: "hooks"},
		Subsets: []corev1.EndpointSubset{
			{NotReadyAddresses: []corev1.EndpointAddress{{IP: "10.0.0.9"}}, Ports: []corev1.EndpointPort{{Port: 9999, Protocol: corev1.ProtocolTCP}}},
			{Addresses: []corev1.EndpointAddress{{IP: "10.0.0.1"}, {IP: "10.0.0.2"}}, Ports: []corev1.EndpointPort{{Port: 8443, Protocol: corev1.ProtocolTCP}}},
		}})
	env.Create(t, eps, &corev1.Endpoints{ObjectMeta: meta.ObjectMeta{Name: "notready", Namespace: "hooks"},
		Subsets: []corev1.EndpointSubset{{NotReadyAddresses: []corev1.EndpointAddress{{IP: "10.0.0.3"}}, Ports: []corev1.EndpointPort{{Port: 8443, Protocol: corev1.ProtocolTCP}}}}})
	env.Create(t, svc, &corev1.Service{ObjectMeta: meta.ObjectMeta{Name: "external", Namespace: "hooks"},
		Spec: corev1.ServiceSpec{Type: corev1.ServiceTypeExternalName, ExternalName: "backend.example.com"}})
	r := client.StoreResolver{Services: env.Config.Store(meta.GroupResource{Resource: "services"}), Endpoints: env.Config.Store(meta.GroupResource{Resource: "endpoints"})}
	for _, tc := range []struct {
		name   string
		port   int32
		want   string
		noAddr bool // ErrNoEndpoint
	}{
		{"plain", 443, "10.0.0.1:8443", false},
		{"plain", 8443, "", true}, // not a port of the service
		{"external", 8443, "backend.example.com:8443", false},
		{"notready", 443, "", true},
		{"noendpoints", 443, "", false},
		{"missing", 443, "", false},
	} {
		got, err := r.Resolve(context.Background(), "hooks", tc.name, tc.port)
		if tc.want != "" {
			if err != nil || got != tc.want {
				t.Errorf("%s:%d = %q, %v; want %s", tc.name, tc.port, got, err, tc.want)
			}
			continue
		}
		if err == nil || errors.Is(err, client.ErrNoEndpoint) != tc.noAddr {
			t.Errorf("%s:%d = %q, %v; want an error (no endpoint: %v)", tc.name, tc.port, got, err, tc.noAddr)
		}
	}
}
