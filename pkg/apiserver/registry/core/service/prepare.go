package service

import (
	"slices"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/apiserver/registry/core/corevalidation"
)

// prepareForCreate fills clusterIPs from clusterIP for clients that only
// know the singular field, then the IP family fields.
func prepareForCreate(s *corev1.Service) {
	normalizeClusterIPs(s, nil)
	initIPFamilies(s)
}

// prepareForUpdate reconciles an update with the stored service the way
// upstream does: it clears fields the new type no longer uses, keeps
// assigned values the client left out, and syncs the IP fields.
func prepareForUpdate(s, old *corev1.Service) {
	dropTypeDependentFields(s, old)
	keepAssignedValues(s, old)
	normalizeClusterIPs(s, old)
	initIPFamilies(s)
}

func needsClusterIP(s *corev1.Service) bool { return s.Spec.Type != corev1.ServiceTypeExternalName }

func needsNodePort(s *corev1.Service) bool {
	return s.Spec.Type == corev1.ServiceTypeNodePort || s.Spec.Type == corev1.ServiceTypeLoadBalancer
}

func sameClusterIPs(a, b *corev1.Service) bool {
	return a.Spec.ClusterIP == b.Spec.ClusterIP && slices.Equal(a.Spec.ClusterIPs, b.Spec.ClusterIPs)
}

func policyOf(s *corev1.Service) corev1.IPFamilyPolicy {
	if s.Spec.IPFamilyPolicy == nil {
		return ""
	}
	return *s.Spec.IPFamilyPolicy
}

func equalPtr[T comparable](a, b *T) bool {
	return (a == nil && b == nil) || (a != nil && b != nil && *a == *b)
}

// nodePorts returns the non-zero node ports of a service.
func nodePorts(s *corev1.Service) map[int32]bool {
	m := map[int32]bool{}
	for _, p := range s.Spec.Ports {
		if p.NodePort != 0 {
			m[p.NodePort] = true
		}
	}
	return m
}

// dropTypeDependentFields clears, on a type change, the fields the new type
// does not use, but only those the client left as they were (a changed value
// is the client's choice, for validation to judge).
func dropTypeDependentFields(s, old *corev1.Service) {
	if needsClusterIP(old) && !needsClusterIP(s) {
		if sameClusterIPs(s, old) {
			s.Spec.ClusterIP, s.Spec.ClusterIPs = "", nil
		}
		if slices.Equal(s.Spec.IPFamilies, old.Spec.IPFamilies) {
			s.Spec.IPFamilies = nil
		}
		if policyOf(s) == policyOf(old) {
			s.Spec.IPFamilyPolicy = nil
		}
	}
	if needsNodePort(old) && !needsNodePort(s) {
		oldPorts, unchanged := nodePorts(old), true
		for p := range nodePorts(s) {
			unchanged = unchanged && oldPorts[p]
		}
		if unchanged {
			for i := range s.Spec.Ports {
				s.Spec.Ports[i].NodePort = 0
			}
		}
	}
	if needsHealthCheck(old) && !needsHealthCheck(s) && s.Spec.HealthCheckNodePort == old.Spec.HealthCheckNodePort {
		s.Spec.HealthCheckNodePort = 0
	}
	wasLB, isLB := old.Spec.Type == corev1.ServiceTypeLoadBalancer, s.Spec.Type == corev1.ServiceTypeLoadBalancer
	if wasLB && !isLB {
		a, b := s.Spec.AllocateLoadBalancerNodePorts, old.Spec.AllocateLoadBalancerNodePorts
		if a != nil && b != nil && *a == *b {
			s.Spec.AllocateLoadBalancerNodePorts = nil
		}
		if equalPtr(s.Spec.LoadBalancerClass, old.Spec.LoadBalancerClass) {
			s.Spec.LoadBalancerClass = nil
		}
	}
	if externallyAccessible(old) && !externallyAccessible(s) && s.Spec.ExternalTrafficPolicy == old.Spec.ExternalTrafficPolicy {
		s.Spec.ExternalTrafficPolicy = ""
	}
	if !isLB {
		s.Status.LoadBalancer = corev1.LoadBalancerStatus{}
	}
}

// keepAssignedValues copies from the stored service the cluster IPs and
// node ports a client left out, so that resubmitting the same manifest
// succeeds.
func keepAssignedValues(s, old *corev1.Service) {
	if needsClusterIP(old) && needsClusterIP(s) {
		if s.Spec.ClusterIP == "" {
			s.Spec.ClusterIP = old.Spec.ClusterIP
		}
		if len(s.Spec.ClusterIPs) == 0 && len(old.Spec.ClusterIPs) > 0 {
			s.Spec.ClusterIPs = old.Spec.ClusterIPs
		}
	}
	if needsNodePort(old) && needsNodePort(s) {
		oldPorts, newPorts := nodePorts(old), nodePorts(s)
		byName := map[string]int32{}
		for _, p := range old.Spec.Ports {
			byName[p.Name] = p.NodePort
		}
		for i := range s.Spec.Ports {
			p := &s.Spec.Ports[i]
			if v := byName[p.Name]; p.NodePort == 0 && !(oldPorts[v] && newPorts[v]) {
				p.NodePort = v
			}
		}
	}
	if needsHealthCheck(old) && needsHealthCheck(s) && s.Spec.HealthCheckNodePort == 0 {
		s.Spec.HealthCheckNodePort = old.Spec.HealthCheckNodePort
	}
}

// normalizeClusterIPs keeps clusterIPs in step with clusterIP for clients
// that only set the singular field; old is nil on create.
func normalizeClusterIPs(s, old *corev1.Service) {
	if old == nil {
		if s.Spec.ClusterIP != "" && len(s.Spec.ClusterIPs) == 0 {
			s.Spec.ClusterIPs = []string{s.Spec.ClusterIP}
		}
		return
	}
	if len(old.Spec.ClusterIPs) > 0 && len(s.Spec.ClusterIPs) == 0 && s.Spec.ClusterIP == old.Spec.ClusterIP {
		s.Spec.ClusterIPs = old.Spec.ClusterIPs
	}
	if s.Spec.ClusterIP == old.Spec.ClusterIP || !slices.Equal(s.Spec.ClusterIPs, old.Spec.ClusterIPs) {
		return
	}
	// The singular field changed and the plural did not: follow the singular.
	if s.Spec.ClusterIP == "" {
		s.Spec.ClusterIPs = nil
	} else {
		s.Spec.ClusterIPs = []string{s.Spec.ClusterIP}
	}
}

// initIPFamilies fills ipFamilyPolicy and ipFamilies when unset. Without
// address allocation the primary family of the cluster is taken to be IPv4.
func initIPFamilies(s *corev1.Service) {
	if !needsClusterIP(s) {
		return
	}
	spec := &s.Spec
	headless := isHeadless(s)
	if spec.IPFamilyPolicy == nil {
		policy := corev1.IPFamilyPolicySingleStack
		if len(spec.ClusterIPs) == 2 || len(spec.IPFamilies) == 2 ||
			(headless && len(spec.Selector) == 0 && len(spec.IPFamilies) == 0) {
			policy = corev1.IPFamilyPolicyRequireDualStack
		}
		spec.IPFamilyPolicy = &policy
	}
	if len(spec.IPFamilies) > 0 {
		return
	}
	for _, ip := range spec.ClusterIPs {
		if f := corevalidation.FamilyOf(ip); f != corev1.IPFamilyUnknown {
			spec.IPFamilies = append(spec.IPFamilies, f)
		}
	}
	if len(spec.IPFamilies) == 0 {
		spec.IPFamilies = []corev1.IPFamily{corev1.IPv4Protocol}
	}
	policy := *spec.IPFamilyPolicy
	dual := policy == corev1.IPFamilyPolicyRequireDualStack || (headless && policy == corev1.IPFamilyPolicyPreferDualStack)
	if dual && len(spec.IPFamilies) == 1 {
		spec.IPFamilies = append(spec.IPFamilies, corevalidation.OtherFamily(spec.IPFamilies[0]))
	}
}
