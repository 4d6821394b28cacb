package quota

import (
	"strings"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

// ObjectCountName is the quota name counting objects of gr:
// "count/<resource>" in the core group, "count/<resource>.<group>" in others.
func ObjectCountName(gr meta.GroupResource) corev1.ResourceName {
	if gr.Group == "" {
		return corev1.ResourceName("count/" + gr.Resource)
	}
	return corev1.ResourceName("count/" + gr.Resource + "." + gr.Group)
}

// legacyCountNames are the older, unprefixed object-count names of the
// core resources that have one.
var legacyCountNames = map[string]corev1.ResourceName{
	"pods": corev1.ResourcePods, "services": corev1.ResourceServices, "configmaps": corev1.ResourceConfigMaps,
	"secrets": corev1.ResourceSecrets, "resourcequotas": corev1.ResourceQuotas,
	"replicationcontrollers": corev1.ResourceReplicationControllers,
	"persistentvolumeclaims": corev1.ResourcePersistentVolumeClaims,
}

// Usage returns what obj, an object of gr, uses of every resource a quota
// can track for gr, at time now (a pod whose deletion grace has run out
// no longer counts). Zero entries are left out.
func Usage(gr meta.GroupResource, obj meta.Object, now time.Time) corev1.ResourceList {
	out := corev1.ResourceList{ObjectCountName(gr): one()}
	if gr.Group != "" {
		return out
	}
	switch gr.Resource {
	case "pods":
		// A finished pod is still an object (count/pods) but no longer
		// uses a pod slot or compute resources.
		if pod, ok := obj.(*corev1.Pod); ok && counts(pod, now) {
			out = Add(out, podUsage(pod))
		}
		return RemoveZeros(out)
	case "services":
		if svc, ok := obj.(*corev1.Service); ok {
			out = Add(out, serviceUsage(svc))
		}
	}
	if n, ok := legacyCountNames[gr.Resource]; ok {
		out[n] = one()
	}
	return RemoveZeros(out)
}

// Tracks reports whether a quota on name can be affected by objects of gr.
func Tracks(gr meta.GroupResource, name corev1.ResourceName) bool {
	if name == ObjectCountName(gr) {
		return true
	}
	if gr.Group != "" {
		return false
	}
	if n, ok := legacyCountNames[gr.Resource]; ok && n == name {
		return true
	}
	switch gr.Resource {
	case "pods":
		return isPodComputeName(name)
	case "services":
		return name == corev1.ResourceServicesNodePorts || name == corev1.ResourceServicesLoadBalancers
	}
	return false
}

// Matching returns the names of hard that objects of gr can affect, sorted.
func Matching(gr meta.GroupResource, hard corev1.ResourceList) []corev1.ResourceName {
	var out []corev1.ResourceName
	for _, n := range Names(hard) {
		if Tracks(gr, n) {
			out = append(out, n)
		}
	}
	return out
}

// serviceUsage counts a service, its node ports and its load balancer.
func serviceUsage(svc *corev1.Service) corev1.ResourceList {
	out := corev1.ResourceList{}
	ports := int64(len(svc.Spec.Ports))
	switch svc.Spec.Type {
	case corev1.ServiceTypeNodePort:
		out[corev1.ResourceServicesNodePorts] = quantity(ports)
	case corev1.ServiceTypeLoadBalancer:
		if a := svc.Spec.AllocateLoadBalancerNodePorts; a != nil && !*a {
			// Without allocation only explicitly requested node ports count.
			ports = 0
			for _, p := range svc.Spec.Ports {
				if p.NodePort != 0 {
					ports++
				}
			}
		}
		out[corev1.ResourceServicesNodePorts] = quantity(ports)
		out[corev1.ResourceServicesLoadBalancers] = one()
	}
	return out
}

// isPodComputeName reports whether name is one pods' compute usage fills.
func isPodComputeName(name corev1.ResourceName) bool {
	switch name {
	case corev1.ResourceCPU, corev1.ResourceMemory, corev1.ResourceEphemeralStorage,
		corev1.ResourceRequestsCPU, corev1.ResourceRequestsMemory, corev1.ResourceRequestsEphemeralStorage,
		corev1.ResourceLimitsCPU, corev1.ResourceLimitsMemory, corev1.ResourceLimitsEphemeralStorage:
		return true
	}
	s := string(name)
	return strings.HasPrefix(s, corev1.ResourceRequestsHugePagesPrefix) ||
		strings.HasPrefix(s, corev1.DefaultResourceRequestsPrefix) && strings.Contains(s, "/")
}
