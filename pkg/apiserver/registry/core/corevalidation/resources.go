package corevalidation

import (
	"strings"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/resource"

	"platform.io/platform/pkg/apiserver/validation/field"
)

// Messages of the resource checks, as upstream words them.
const (
	NonNegativeMsg = "must be greater than or equal to 0"
	notIntegerMsg  = "must be an integer"
)

// integerResources are the resources counted in whole objects.
var integerResources = map[corev1.ResourceName]bool{
	corev1.ResourcePods: true, corev1.ResourceQuotas: true, corev1.ResourceServices: true,
	corev1.ResourceReplicationControllers: true, corev1.ResourceSecrets: true, corev1.ResourceConfigMaps: true,
	corev1.ResourcePersistentVolumeClaims: true, corev1.ResourceServicesNodePorts: true,
	corev1.ResourceServicesLoadBalancers: true,
}

// quotaResources are the unprefixed names a quota may track.
var quotaResources = map[corev1.ResourceName]bool{
	corev1.ResourcePods: true, corev1.ResourceQuotas: true, corev1.ResourceServices: true,
	corev1.ResourceReplicationControllers: true, corev1.ResourceSecrets: true, corev1.ResourceConfigMaps: true,
	corev1.ResourcePersistentVolumeClaims: true, corev1.ResourceServicesNodePorts: true,
	corev1.ResourceServicesLoadBalancers: true,
	corev1.ResourceCPU:                   true, corev1.ResourceMemory: true, corev1.ResourceEphemeralStorage: true,
	corev1.ResourceRequestsCPU: true, corev1.ResourceRequestsMemory: true, corev1.ResourceRequestsStorage: true,
	corev1.ResourceRequestsEphemeralStorage: true, corev1.ResourceLimitsCPU: true, corev1.ResourceLimitsMemory: true,
	corev1.ResourceLimitsEphemeralStorage: true,
}

// IsNativeResource reports whether a resource name belongs to the
// platform: unprefixed, or in the platform.io domain.
func IsNativeResource(name corev1.ResourceName) bool {
	s := string(name)
	return !strings.Contains(s, "/") || strings.Contains(s, corev1.ResourceDefaultNamespacePrefix)
}

// IsExtendedResourceName reports whether name is an extended resource: a
// domain-qualified name outside platform.io that is not a quota's
// requests.<name>.
func IsExtendedResourceName(name corev1.ResourceName) bool {
	if IsNativeResource(name) || strings.HasPrefix(string(name), corev1.DefaultResourceRequestsPrefix) {
		return false
	}
	return len(QualifiedName(nil, corev1.DefaultResourceRequestsPrefix+string(name))) == 0
}

// IsIntegerResourceName reports whether name is counted in whole units:
// object counts and extended resources.
func IsIntegerResourceName(name corev1.ResourceName) bool {
	return integerResources[name] || IsExtendedResourceName(name)
}

// ResourceQuantity checks that q, the amount of resource name, is not
// negative, and whole where name is counted in whole units.
func ResourceQuantity(p *field.Path, name corev1.ResourceName, q resource.Quantity) field.ErrorList {
	var errs field.ErrorList
	if q.Sign() < 0 {
		errs = append(errs, field.Invalid(p, q.String(), NonNegativeMsg))
	}
	if IsIntegerResourceName(name) && q.MilliValue()%1000 != 0 {
		errs = append(errs, field.Invalid(p, q.String(), notIntegerMsg))
	}
	return errs
}

// ResourceName checks that name is a qualified name.
func ResourceName(p *field.Path, name corev1.ResourceName) field.ErrorList {
	if name == "" {
		return field.ErrorList{field.Required(p, "")}
	}
	return QualifiedName(p, string(name))
}

// ContainerResourceName checks the name of a container resource: cpu,
// memory, ephemeral-storage, huge pages, or a domain-qualified name.
func ContainerResourceName(p *field.Path, name corev1.ResourceName) field.ErrorList {
	errs := ResourceName(p, name)
	s := string(name)
	if name != "" && !strings.Contains(s, "/") {
		switch {
		case name == corev1.ResourceCPU, name == corev1.ResourceMemory,
			name == corev1.ResourceEphemeralStorage, strings.HasPrefix(s, corev1.ResourceHugePagesPrefix):
		default:
			errs = append(errs, field.Invalid(p, s, "must be a standard resource for containers"))
		}
	}
	return errs
}

// QuotaResourceName checks the name of a resource a quota tracks: a
// standard quota resource, a huge pages request, or a domain-qualified
// name (count/<resource>.<group> included).
func QuotaResourceName(p *field.Path, name corev1.ResourceName) field.ErrorList {
	errs := ResourceName(p, name)
	s := string(name)
	if name != "" && !strings.Contains(s, "/") && !quotaResources[name] && !strings.HasPrefix(s, corev1.ResourceRequestsHugePagesPrefix) {
		errs = append(errs, field.Invalid(p, s, "must be a standard resource for quota"))
	}
	return errs
}
