package v1

import (
	"platform.io/client/api/meta"
	"platform.io/client/api/resource"
)

// GroupName is the name of the core group, which is empty.
const GroupName = ""

// SchemeGroupVersion is the group and version of the kinds in this package.
var SchemeGroupVersion = meta.GroupVersion{Group: GroupName, Version: "v1"}

// Kind returns the fully qualified kind for a kind name of this package.
func Kind(kind string) meta.GroupVersionKind {
	return meta.GroupVersionKind{Group: GroupName, Version: SchemeGroupVersion.Version, Kind: kind}
}

// Resource returns the group-qualified resource for a plural resource name.
func Resource(resource string) meta.GroupResource {
	return meta.GroupResource{Group: GroupName, Resource: resource}
}

// Namespaces the control plane knows by name.
const (
	// NamespaceDefault is where objects go when a request names no namespace.
	NamespaceDefault = "default"
	// NamespaceAll is the empty namespace, meaning every namespace in list and watch calls.
	NamespaceAll = ""
	// NamespaceSystem holds the control plane's own workloads.
	NamespaceSystem = "platform-system"
	// NamespacePublic holds objects readable by every user, authenticated or not.
	NamespacePublic = "platform-public"
	// NamespaceNodeLease holds the Lease objects nodes renew as heartbeats.
	NamespaceNodeLease = "platform-node-lease"
)

// ResourceName names a compute or object-count resource ("cpu", "memory",
// "pods", ...). It is the resource package's type, so lists built here and
// there are interchangeable.
type ResourceName = resource.ResourceName

// ResourceList maps resource names to quantities.
type ResourceList = resource.ResourceList

// Compute and storage resources.
const (
	// ResourceCPU is cpu, in cores ("500m" is half a core).
	ResourceCPU ResourceName = "cpu"
	// ResourceMemory is memory, in bytes.
	ResourceMemory ResourceName = "memory"
	// ResourceStorage is volume size, in bytes.
	ResourceStorage ResourceName = "storage"
	// ResourceEphemeralStorage is node-local scratch space, in bytes.
	ResourceEphemeralStorage ResourceName = "ephemeral-storage"
)

// Object-count resources, as used in quotas and node capacity.
const (
	ResourcePods                   ResourceName = "pods"
	ResourceServices               ResourceName = "services"
	ResourceReplicationControllers ResourceName = "replicationcontrollers"
	ResourceQuotas                 ResourceName = "resourcequotas"
	ResourceSecrets                ResourceName = "secrets"
	ResourceConfigMaps             ResourceName = "configmaps"
	ResourcePersistentVolumeClaims ResourceName = "persistentvolumeclaims"
	ResourceServicesNodePorts      ResourceName = "services.nodeports"
	ResourceServicesLoadBalancers  ResourceName = "services.loadbalancers"
)

// Quota names for aggregate requests and limits.
const (
	ResourceRequestsCPU              ResourceName = "requests.cpu"
	ResourceRequestsMemory           ResourceName = "requests.memory"
	ResourceRequestsStorage          ResourceName = "requests.storage"
	ResourceRequestsEphemeralStorage ResourceName = "requests.ephemeral-storage"
	ResourceLimitsCPU                ResourceName = "limits.cpu"
	ResourceLimitsMemory             ResourceName = "limits.memory"
	ResourceLimitsEphemeralStorage   ResourceName = "limits.ephemeral-storage"
)

// Prefixes of resource names.
const (
	// ResourceDefaultNamespacePrefix marks resource names owned by the platform itself.
	ResourceDefaultNamespacePrefix = "platform.io/"
	// ResourceHugePagesPrefix starts the names of huge page resources ("hugepages-2Mi").
	ResourceHugePagesPrefix = "hugepages-"
	// ResourceAttachableVolumesPrefix starts the names of per-node volume attach limits.
	ResourceAttachableVolumesPrefix = "attachable-volumes-"
	// ResourceRequestsHugePagesPrefix starts quota names for huge page requests.
	ResourceRequestsHugePagesPrefix = "requests.hugepages-"
	// DefaultResourceRequestsPrefix starts quota names for requests of any resource.
	DefaultResourceRequestsPrefix = "requests."
)
