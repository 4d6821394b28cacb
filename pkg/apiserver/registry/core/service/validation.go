package service

import (
	"fmt"
	"strings"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/apiserver/registry/core/corevalidation"
	"platform.io/platform/pkg/apiserver/validation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// MaxClientIPAffinitySeconds bounds sessionAffinityConfig.clientIP.timeoutSeconds.
const MaxClientIPAffinitySeconds = 86400

var (
	serviceTypes = []corev1.ServiceType{corev1.ServiceTypeClusterIP, corev1.ServiceTypeExternalName,
		corev1.ServiceTypeLoadBalancer, corev1.ServiceTypeNodePort}
	affinities       = []corev1.ServiceAffinity{corev1.ServiceAffinityClientIP, corev1.ServiceAffinityNone}
	externalPolicies = []corev1.ServiceExternalTrafficPolicy{corev1.ServiceExternalTrafficPolicyCluster,
		corev1.ServiceExternalTrafficPolicyLocal}
	internalPolicies = []corev1.ServiceInternalTrafficPolicy{corev1.ServiceInternalTrafficPolicyCluster,
		corev1.ServiceInternalTrafficPolicyLocal}
	trafficDistributions = []string{corev1.ServiceTrafficDistributionPreferClose,
		corev1.ServiceTrafficDistributionPreferSameNode, corev1.ServiceTrafficDistributionPreferSameZone}
)

const onlyForLB = "may only be used when `type` is 'LoadBalancer'"

// validate checks a service's spec.
func validate(s *corev1.Service) field.ErrorList {
	spec := field.NewPath("spec")
	var errs field.ErrorList
	switch {
	case s.Spec.Type == "":
		errs = append(errs, field.Required(spec.Child("type"), ""))
	case !contains(serviceTypes, s.Spec.Type):
		errs = append(errs, field.NotSupported(spec.Child("type"), s.Spec.Type, serviceTypes))
	}
	if len(s.Spec.Ports) == 0 && !isHeadless(s) && s.Spec.Type != corev1.ServiceTypeExternalName {
		errs = append(errs, field.Required(spec.Child("ports"), ""))
	}
	errs = append(errs, validateTypeSpecific(s, spec)...)
	errs = append(errs, validatePorts(s, spec.Child("ports"))...)
	errs = append(errs, validation.Labels(s.Spec.Selector, spec.Child("selector"))...)
	errs = append(errs, validateAffinity(s, spec)...)
	errs = append(errs, validateClusterIPs(s, spec)...)
	for i, ip := range s.Spec.ExternalIPs {
		errs = append(errs, corevalidation.NonSpecialIP(spec.Child("externalIPs").Index(i), ip)...)
	}
	errs = append(errs, validateLoadBalancerFields(s, spec)...)
	return append(errs, validateTrafficPolicies(s, spec)...)
}

func contains[T comparable](list []T, v T) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// validateTypeSpecific checks what a type requires or forbids of the IP fields.
func validateTypeSpecific(s *corev1.Service, spec *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch s.Spec.Type {
	case corev1.ServiceTypeLoadBalancer, corev1.ServiceTypeNodePort:
		if isHeadless(s) {
			p, v := spec.Child("clusterIP"), s.Spec.ClusterIP
			if len(s.Spec.ClusterIPs) > 0 {
				p, v = spec.Child("clusterIPs").Index(0), s.Spec.ClusterIPs[0]
			}
			errs = append(errs, field.Invalid(p, v, fmt.Sprintf("may not be set to 'None' for %s services", s.Spec.Type)))
		}
	case corev1.ServiceTypeExternalName:
		const msg = "may not be set for ExternalName services"
		if len(s.Spec.ClusterIPs) > 0 {
			errs = append(errs, field.Forbidden(spec.Child("clusterIPs"), msg))
		} else if s.Spec.ClusterIP != "" {
			errs = append(errs, field.Forbidden(spec.Child("clusterIP"), msg))
		}
		if len(s.Spec.IPFamilies) > 0 {
			errs = append(errs, field.Forbidden(spec.Child("ipFamilies"), msg))
		}
		if s.Spec.IPFamilyPolicy != nil {
			errs = append(errs, field.Forbidden(spec.Child("ipFamilyPolicy"), msg))
		}
		// A trailing dot marks the name fully qualified.
		if name := strings.TrimSuffix(s.Spec.ExternalName, "."); name == "" {
			errs = append(errs, field.Required(spec.Child("externalName"), ""))
		} else {
			errs = append(errs, corevalidation.Name(spec.Child("externalName"), name, validation.IsDNS1123Subdomain)...)
		}
	}
	return errs
}

// portKey identifies a port by number and protocol.
type portKey struct {
	port     int32
	protocol corev1.Protocol
}

// validatePorts checks each port, unique names (required when there are
// several), unique port/protocol pairs, and node ports.
func validatePorts(s *corev1.Service, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	names, ports, nodePorts := map[string]bool{}, map[portKey]bool{}, map[portKey]bool{}
	nodePortAllowed := needsNodePort(s)
	for i, sp := range s.Spec.Ports {
		pp := p.Index(i)
		switch {
		case sp.Name == "" && len(s.Spec.Ports) > 1:
			errs = append(errs, field.Required(pp.Child("name"), ""))
		case sp.Name != "":
			errs = append(errs, corevalidation.Name(pp.Child("name"), sp.Name, validation.IsDNS1123Label)...)
			if names[sp.Name] {
				errs = append(errs, field.Duplicate(pp.Child("name"), sp.Name))
			}
			names[sp.Name] = true
		}
		errs = append(errs, corevalidation.PortNum(pp.Child("port"), sp.Port)...)
		errs = append(errs, corevalidation.Protocol(pp.Child("protocol"), sp.Protocol)...)
		errs = append(errs, corevalidation.PortNumOrName(pp.Child("targetPort"), sp.TargetPort)...)
		if sp.AppProtocol != nil {
			errs = append(errs, corevalidation.QualifiedName(pp.Child("appProtocol"), *sp.AppProtocol)...)
		}
		if k := (portKey{sp.Port, sp.Protocol}); ports[k] {
			errs = append(errs, field.Duplicate(pp, fmt.Sprintf("%d/%s", sp.Port, sp.Protocol)))
		} else {
			ports[k] = true
		}
		if sp.NodePort == 0 {
			continue
		}
		if !nodePortAllowed {
			errs = append(errs, field.Forbidden(pp.Child("nodePort"), fmt.Sprintf("may not be used when `type` is '%s'", s.Spec.Type)))
			continue
		}
		errs = append(errs, corevalidation.PortNum(pp.Child("nodePort"), sp.NodePort)...)
		if k := (portKey{sp.NodePort, sp.Protocol}); nodePorts[k] {
			errs = append(errs, field.Duplicate(pp.Child("nodePort"), sp.NodePort))
		} else {
			nodePorts[k] = true
		}
	}
	return errs
}

// validateAffinity checks sessionAffinity and its configuration.
func validateAffinity(s *corev1.Service, spec *field.Path) field.ErrorList {
	p := spec.Child("sessionAffinity")
	cp := spec.Child("sessionAffinityConfig")
	switch s.Spec.SessionAffinity {
	case "":
		return field.ErrorList{field.Required(p, "")}
	case corev1.ServiceAffinityNone:
		if s.Spec.SessionAffinityConfig != nil {
			return field.ErrorList{field.Forbidden(cp, "must not be set when session affinity is None")}
		}
		return nil
	case corev1.ServiceAffinityClientIP:
	default:
		return field.ErrorList{field.NotSupported(p, s.Spec.SessionAffinity, affinities)}
	}
	const when = "when session affinity is ClientIP"
	c := s.Spec.SessionAffinityConfig
	switch {
	case c == nil:
		return field.ErrorList{field.Required(cp, when)}
	case c.ClientIP == nil:
		return field.ErrorList{field.Required(cp.Child("clientIP"), when)}
	case c.ClientIP.TimeoutSeconds == nil:
		return field.ErrorList{field.Required(cp.Child("clientIP", "timeoutSeconds"), when)}
	}
	if t := *c.ClientIP.TimeoutSeconds; t <= 0 || t > MaxClientIPAffinitySeconds {
		return field.ErrorList{field.Invalid(cp.Child("clientIP", "timeoutSeconds"), t,
			fmt.Sprintf("must be greater than 0 and at most %d", MaxClientIPAffinitySeconds))}
	}
	return nil
}

// validateLoadBalancerFields checks the fields only load balancers may use.
func validateLoadBalancerFields(s *corev1.Service, spec *field.Path) field.ErrorList {
	var errs field.ErrorList
	isLB := s.Spec.Type == corev1.ServiceTypeLoadBalancer
	if rp := spec.Child("loadBalancerSourceRanges"); len(s.Spec.LoadBalancerSourceRanges) > 0 {
		if !isLB {
			errs = append(errs, field.Forbidden(rp, onlyForLB))
		}
		for i, r := range s.Spec.LoadBalancerSourceRanges {
			errs = append(errs, corevalidation.TrimmedCIDR(rp.Index(i), r)...)
		}
	}
	ap := spec.Child("allocateLoadBalancerNodePorts")
	switch {
	case s.Spec.AllocateLoadBalancerNodePorts != nil && !isLB:
		errs = append(errs, field.Forbidden(ap, onlyForLB))
	case s.Spec.AllocateLoadBalancerNodePorts == nil && isLB:
		errs = append(errs, field.Required(ap, ""))
	}
	if c := s.Spec.LoadBalancerClass; c != nil {
		if isLB {
			errs = append(errs, corevalidation.QualifiedName(spec.Child("loadBalancerClass"), *c)...)
		} else {
			errs = append(errs, field.Forbidden(spec.Child("loadBalancerClass"), onlyForLB))
		}
	}
	return errs
}

// validateTrafficPolicies checks the traffic policies, the health check
// node port and the traffic distribution.
func validateTrafficPolicies(s *corev1.Service, spec *field.Path) field.ErrorList {
	var errs field.ErrorList
	ep := spec.Child("externalTrafficPolicy")
	switch etp := s.Spec.ExternalTrafficPolicy; {
	case !externallyAccessible(s) && etp != "":
		errs = append(errs, field.Invalid(ep, etp, "may only be set for externally-accessible services"))
	case externallyAccessible(s) && etp == "":
		errs = append(errs, field.Required(ep, ""))
	case etp != "" && !contains(externalPolicies, etp):
		errs = append(errs, field.NotSupported(ep, etp, externalPolicies))
	}
	hp := spec.Child("healthCheckNodePort")
	if hc := s.Spec.HealthCheckNodePort; hc != 0 {
		if needsHealthCheck(s) {
			errs = append(errs, corevalidation.PortNum(hp, hc)...)
		} else {
			errs = append(errs, field.Invalid(hp, hc, "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"))
		}
	}
	ip := spec.Child("internalTrafficPolicy")
	if itp := s.Spec.InternalTrafficPolicy; itp == nil {
		switch s.Spec.Type {
		case corev1.ServiceTypeClusterIP, corev1.ServiceTypeNodePort, corev1.ServiceTypeLoadBalancer:
			errs = append(errs, field.Required(ip, ""))
		}
	} else if !contains(internalPolicies, *itp) {
		errs = append(errs, field.NotSupported(ip, *itp, internalPolicies))
	}
	if td := s.Spec.TrafficDistribution; td != nil && !contains(trafficDistributions, *td) {
		errs = append(errs, field.NotSupported(spec.Child("trafficDistribution"), *td, trafficDistributions))
	}
	return errs
}
