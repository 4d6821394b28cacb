package service

import (
	"slices"
	"testing"

	corev1 "platform.io/client/api/core/v1"
)

func families(f ...corev1.IPFamily) []corev1.IPFamily { return f }

func TestPrepareForCreate(t *testing.T) {
	v4, v6 := corev1.IPv4Protocol, corev1.IPv6Protocol
	cases := []struct {
		name     string
		mutate   func(*corev1.Service)
		ips      []string
		policy   corev1.IPFamilyPolicy
		families []corev1.IPFamily
	}{
		{"no cluster IP", func(*corev1.Service) {}, nil, "SingleStack", families(v4)},
		{"singular only", func(s *corev1.Service) { s.Spec.ClusterIP = "10.0.0.5" }, []string{"10.0.0.5"}, "SingleStack", families(v4)},
		{"ipv6", func(s *corev1.Service) { s.Spec.ClusterIP = "fd00::5" }, []string{"fd00::5"}, "SingleStack", families(v6)},
		{"dual-stack IPs", func(s *corev1.Service) {
			s.Spec.ClusterIP, s.Spec.ClusterIPs = "fd00::5", []string{"fd00::5", "10.0.0.5"}
		}, []string{"fd00::5", "10.0.0.5"}, "RequireDualStack", families(v6, v4)},
		{"headless with selector", func(s *corev1.Service) { s.Spec.ClusterIP = "None" }, []string{"None"}, "SingleStack", families(v4)},
		{"headless without selector", func(s *corev1.Service) { s.Spec.ClusterIP, s.Spec.Selector = "None", nil }, []string{"None"}, "RequireDualStack", families(v4, v6)},
		{"require dual stack", func(s *corev1.Service) { s.Spec.IPFamilyPolicy = ptr(corev1.IPFamilyPolicyRequireDualStack) }, nil, "RequireDualStack", families(v4, v6)},
		{"explicit families kept", func(s *corev1.Service) {
			s.Spec.IPFamilies, s.Spec.IPFamilyPolicy = families(v6), ptr(corev1.IPFamilyPolicyPreferDualStack)
		}, nil, "PreferDualStack", families(v6)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := stored(c.mutate)
			if !slices.Equal(s.Spec.ClusterIPs, c.ips) || policyOf(s) != c.policy || !slices.Equal(s.Spec.IPFamilies, c.families) {
				t.Errorf("clusterIPs %v policy %q families %v", s.Spec.ClusterIPs, policyOf(s), s.Spec.IPFamilies)
			}
			if errs := validate(s); len(errs) > 0 {
				t.Errorf("prepared service is invalid: %v", errs)
			}
		})
	}
	ext := stored(func(s *corev1.Service) { s.Spec.Type, s.Spec.ExternalName = "ExternalName", "example.com" })
	if ext.Spec.IPFamilies != nil || ext.Spec.IPFamilyPolicy != nil {
		t.Errorf("ExternalName got IP families: %+v", ext.Spec)
	}
}

// update runs an update of old to the service mutate makes of a copy of it,
// as the store does: defaults, then prepareForUpdate.
func update(old *corev1.Service, mutate func(*corev1.Service)) *corev1.Service {
	s := stored(func(s *corev1.Service) {
		*s = *old
		s.Spec.Ports = slices.Clone(old.Spec.Ports)
		s.Spec.ClusterIPs = slices.Clone(old.Spec.ClusterIPs)
		s.Spec.IPFamilies = slices.Clone(old.Spec.IPFamilies)
	})
	s.Status = old.Status
	mutate(s)
	setDefaults(s)
	prepareForUpdate(s, old)
	return s
}

func TestPrepareForUpdate(t *testing.T) {
	withIP := stored(func(s *corev1.Service) { s.Spec.ClusterIP = "10.0.0.5" })
	s := update(withIP, func(s *corev1.Service) {
		s.Spec.ClusterIP, s.Spec.ClusterIPs, s.Spec.IPFamilies, s.Spec.IPFamilyPolicy = "", nil, nil, nil
	})
	if s.Spec.ClusterIP != "10.0.0.5" || !slices.Equal(s.Spec.ClusterIPs, []string{"10.0.0.5"}) || policyOf(s) != "SingleStack" {
		t.Errorf("omitted cluster IP not kept: %+v", s.Spec)
	}
	s = update(withIP, func(s *corev1.Service) { s.Spec.ClusterIP = "10.0.0.6" })
	if !slices.Equal(s.Spec.ClusterIPs, []string{"10.0.0.6"}) {
		t.Errorf("clusterIPs did not follow clusterIP: %v", s.Spec.ClusterIPs)
	}
	s = update(withIP, func(s *corev1.Service) { s.Spec.Type, s.Spec.ExternalName = "ExternalName", "example.com" })
	if s.Spec.ClusterIP != "" || s.Spec.ClusterIPs != nil || s.Spec.IPFamilies != nil || s.Spec.IPFamilyPolicy != nil {
		t.Errorf("ExternalName kept IP fields: %+v", s.Spec)
	}
	if errs := validateUpdate(s, withIP); len(errs) > 0 {
		t.Errorf("change to ExternalName refused: %v", errs)
	}

	np := stored(func(s *corev1.Service) { s.Spec.Type, s.Spec.Ports[0].NodePort = "NodePort", 30080 })
	s = update(np, func(s *corev1.Service) { s.Spec.Ports[0].NodePort = 0 })
	if s.Spec.Ports[0].NodePort != 30080 {
		t.Errorf("omitted node port not kept: %d", s.Spec.Ports[0].NodePort)
	}
	s = update(np, func(s *corev1.Service) { s.Spec.Type = "ClusterIP" })
	if s.Spec.Ports[0].NodePort != 0 || s.Spec.ExternalTrafficPolicy != "" {
		t.Errorf("ClusterIP kept node port fields: %+v", s.Spec)
	}

	lb := stored(func(s *corev1.Service) { s.Spec.Type = "LoadBalancer" })
	lb.Status.LoadBalancer.Ingress = []corev1.LoadBalancerIngress{{IP: "1.2.3.4"}}
	s = update(lb, func(s *corev1.Service) { s.Spec.Type = "ClusterIP" })
	if len(s.Status.LoadBalancer.Ingress) != 0 || s.Spec.AllocateLoadBalancerNodePorts != nil {
		t.Errorf("ClusterIP kept load balancer fields: %+v", s)
	}
	if errs := validateUpdate(s, lb); len(errs) > 0 {
		t.Errorf("change to ClusterIP refused: %v", errs)
	}
}
