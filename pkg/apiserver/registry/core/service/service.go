package service

import (
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/intstr"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/validation"
)

// Resource is the services row of the registry.
func Resource() *registry.Resource {
	return &registry.Resource{
		Group: "", Version: "v1", Name: "services", Singular: "service", Kind: "Service",
		ShortNames:          []string{"svc"},
		Categories:          []string{"all"},
		Namespaced:          true,
		New:                 func() meta.Object { return &corev1.Service{} },
		NameFunc:            validation.IsDNS1035Label,
		HasStatus:           true,
		AllowCreateOnUpdate: true,
		Strategy: registry.Typed[corev1.Service]{
			DefaultFunc:          setDefaults,
			PrepareForCreateFunc: prepareForCreate,
			PrepareForUpdateFunc: prepareForUpdate,
			ValidateFunc:         validate,
			ValidateUpdateFunc:   validateUpdate,
		},
		SelectableFields: func(obj meta.Object) map[string]string {
			s := obj.(*corev1.Service)
			return map[string]string{"spec.clusterIP": s.Spec.ClusterIP, "spec.type": string(s.Spec.Type)}
		},
		Table: tableColumns,
	}
}

// externallyAccessible reports whether traffic from outside the cluster can
// reach the service: node ports, load balancers or external IPs.
func externallyAccessible(s *corev1.Service) bool {
	return s.Spec.Type == corev1.ServiceTypeLoadBalancer || s.Spec.Type == corev1.ServiceTypeNodePort ||
		(s.Spec.Type == corev1.ServiceTypeClusterIP && len(s.Spec.ExternalIPs) > 0)
}

// needsHealthCheck reports whether the service needs a health check node port.
func needsHealthCheck(s *corev1.Service) bool {
	return s.Spec.Type == corev1.ServiceTypeLoadBalancer &&
		s.Spec.ExternalTrafficPolicy == corev1.ServiceExternalTrafficPolicyLocal
}

// isHeadless reports whether the service asked for no cluster IP.
func isHeadless(s *corev1.Service) bool {
	return s.Spec.ClusterIP == corev1.ClusterIPNone ||
		(len(s.Spec.ClusterIPs) == 1 && s.Spec.ClusterIPs[0] == corev1.ClusterIPNone)
}

// setDefaults sets upstream's defaults; it runs on every write.
func setDefaults(s *corev1.Service) {
	spec := &s.Spec
	if spec.SessionAffinity == "" {
		spec.SessionAffinity = corev1.ServiceAffinityNone
	}
	switch spec.SessionAffinity {
	case corev1.ServiceAffinityNone:
		spec.SessionAffinityConfig = nil
	case corev1.ServiceAffinityClientIP:
		c := spec.SessionAffinityConfig
		if c == nil || c.ClientIP == nil || c.ClientIP.TimeoutSeconds == nil {
			timeout := corev1.DefaultClientIPServiceAffinitySeconds
			spec.SessionAffinityConfig = &corev1.SessionAffinityConfig{ClientIP: &corev1.ClientIPConfig{TimeoutSeconds: &timeout}}
		}
	}
	if spec.Type == "" {
		spec.Type = corev1.ServiceTypeClusterIP
	}
	for i := range spec.Ports {
		p := &spec.Ports[i]
		if p.Protocol == "" {
			p.Protocol = corev1.ProtocolTCP
		}
		if p.TargetPort == intstr.FromInt(0) || p.TargetPort == intstr.FromString("") {
			p.TargetPort = intstr.FromInt(int(p.Port))
		}
	}
	if externallyAccessible(s) && spec.ExternalTrafficPolicy == "" {
		spec.ExternalTrafficPolicy = corev1.ServiceExternalTrafficPolicyCluster
	}
	switch spec.Type {
	case corev1.ServiceTypeClusterIP, corev1.ServiceTypeNodePort, corev1.ServiceTypeLoadBalancer:
		if spec.InternalTrafficPolicy == nil {
			p := corev1.ServiceInternalTrafficPolicyCluster
			spec.InternalTrafficPolicy = &p
		}
	}
	if spec.Type == corev1.ServiceTypeLoadBalancer {
		defaultLoadBalancer(s)
	}
}

// defaultLoadBalancer allocates node ports for load balancers unless told
// not to, and marks load-balancer IPs as virtual IPs unless told otherwise.
func defaultLoadBalancer(s *corev1.Service) {
	if s.Spec.AllocateLoadBalancerNodePorts == nil {
		allocate := true
		s.Spec.AllocateLoadBalancerNodePorts = &allocate
	}
	for i := range s.Status.LoadBalancer.Ingress {
		ing := &s.Status.LoadBalancer.Ingress[i]
		if ing.IP != "" && ing.IPMode == nil {
			mode := corev1.LoadBalancerIPModeVIP
			ing.IPMode = &mode
		}
	}
}
