package v1

import "platform.io/client/api/meta"

// Node is a worker machine that runs pods.
type Node struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	Spec   NodeSpec   `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	Status NodeStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// NodeList is a list of nodes.
type NodeList struct {
	meta.TypeMeta `json:",inline"`
	meta.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	Items []Node `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// NodeSpec is the configuration a node is given.
type NodeSpec struct {
	PodCIDR string `json:"podCIDR,omitempty" protobuf:"bytes,1,opt,name=podCIDR"`
	// PodCIDRs holds at most one range per IP family; the first equals PodCIDR.
	PodCIDRs []string `json:"podCIDRs,omitempty" patchStrategy:"merge" protobuf:"bytes,7,opt,name=podCIDRs"`
	// ProviderID is "<provider>://<id>" as assigned by the infrastructure.
	ProviderID    string  `json:"providerID,omitempty" protobuf:"bytes,3,opt,name=providerID"`
	Unschedulable bool    `json:"unschedulable,omitempty" protobuf:"varint,4,opt,name=unschedulable"`
	Taints        []Taint `json:"taints,omitempty" protobuf:"bytes,5,opt,name=taints"`
	// ConfigSource belonged to the removed dynamic node agent configuration feature.
	ConfigSource *NodeConfigSource `json:"configSource,omitempty" protobuf:"bytes,6,opt,name=configSource"`
	// DoNotUseExternalID is deprecated and ignored.
	DoNotUseExternalID string `json:"externalID,omitempty" protobuf:"bytes,2,opt,name=externalID"`
}

// NodeConfigSource points at a node configuration source (deprecated).
type NodeConfigSource struct {
	ConfigMap *ConfigMapNodeConfigSource `json:"configMap,omitempty" protobuf:"bytes,2,opt,name=configMap"`
}

// ConfigMapNodeConfigSource names a config map holding node agent configuration (deprecated).
type ConfigMapNodeConfigSource struct {
	Namespace        string   `json:"namespace" protobuf:"bytes,1,opt,name=namespace"`
	Name             string   `json:"name" protobuf:"bytes,2,opt,name=name"`
	UID              meta.UID `json:"uid,omitempty" protobuf:"bytes,3,opt,name=uid"`
	ResourceVersion  string   `json:"resourceVersion,omitempty" protobuf:"bytes,4,opt,name=resourceVersion"`
	KubeletConfigKey string   `json:"kubeletConfigKey" protobuf:"bytes,5,opt,name=kubeletConfigKey"`
}

// NodeStatus is the observed state of a node.
type NodeStatus struct {
	Capacity    ResourceList `json:"capacity,omitempty" protobuf:"bytes,1,rep,name=capacity,casttype=ResourceList,castkey=ResourceName"`
	Allocatable ResourceList `json:"allocatable,omitempty" protobuf:"bytes,2,rep,name=allocatable,casttype=ResourceList,castkey=ResourceName"`
	// Phase is deprecated and never set.
	Phase      NodePhase       `json:"phase,omitempty" protobuf:"bytes,3,opt,name=phase,casttype=NodePhase"`
	Conditions []NodeCondition `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type" protobuf:"bytes,4,rep,name=conditions"`
	// Addresses is declared merge-by-type, but writers should replace it whole.
	Addresses        []NodeAddress        `json:"addresses,omitempty" patchStrategy:"merge" patchMergeKey:"type" protobuf:"bytes,5,rep,name=addresses"`
	DaemonEndpoints  NodeDaemonEndpoints  `json:"daemonEndpoints,omitempty" protobuf:"bytes,6,opt,name=daemonEndpoints"`
	NodeInfo         NodeSystemInfo       `json:"nodeInfo,omitempty" protobuf:"bytes,7,opt,name=nodeInfo"`
	Images           []ContainerImage     `json:"images,omitempty" protobuf:"bytes,8,rep,name=images"`
	VolumesInUse     []UniqueVolumeName   `json:"volumesInUse,omitempty" protobuf:"bytes,9,rep,name=volumesInUse"`
	VolumesAttached  []AttachedVolume     `json:"volumesAttached,omitempty" protobuf:"bytes,10,rep,name=volumesAttached"`
	Config           *NodeConfigStatus    `json:"config,omitempty" protobuf:"bytes,11,opt,name=config"`
	RuntimeHandlers  []NodeRuntimeHandler `json:"runtimeHandlers,omitempty" protobuf:"bytes,12,rep,name=runtimeHandlers"`
	Features         *NodeFeatures        `json:"features,omitempty" protobuf:"bytes,13,rep,name=features"`
	DeclaredFeatures []string             `json:"declaredFeatures,omitempty" protobuf:"bytes,14,rep,name=declaredFeatures"`
}

// NodePhase is the deprecated lifecycle phase of a node.
type NodePhase string

// The values of NodePhase.
const (
	NodePending    NodePhase = "Pending"
	NodeRunning    NodePhase = "Running"
	NodeTerminated NodePhase = "Terminated"
)

// NodeConditionType names a node condition.
type NodeConditionType string

// The built-in node conditions.
const (
	NodeReady              NodeConditionType = "Ready"
	NodeMemoryPressure     NodeConditionType = "MemoryPressure"
	NodeDiskPressure       NodeConditionType = "DiskPressure"
	NodePIDPressure        NodeConditionType = "PIDPressure"
	NodeNetworkUnavailable NodeConditionType = "NetworkUnavailable"
)

// NodeCondition is one observed condition of a node.
type NodeCondition struct {
	Type               NodeConditionType `json:"type" protobuf:"bytes,1,opt,name=type,casttype=NodeConditionType"`
	Status             ConditionStatus   `json:"status" protobuf:"bytes,2,opt,name=status,casttype=ConditionStatus"`
	LastHeartbeatTime  meta.Time         `json:"lastHeartbeatTime,omitempty" protobuf:"bytes,3,opt,name=lastHeartbeatTime"`
	LastTransitionTime meta.Time         `json:"lastTransitionTime,omitempty" protobuf:"bytes,4,opt,name=lastTransitionTime"`
	Reason             string            `json:"reason,omitempty" protobuf:"bytes,5,opt,name=reason"`
	Message            string            `json:"message,omitempty" protobuf:"bytes,6,opt,name=message"`
}

// NodeAddressType classifies a node address.
type NodeAddressType string

// The built-in node address types.
const (
	NodeHostName    NodeAddressType = "Hostname"
	NodeInternalIP  NodeAddressType = "InternalIP"
	NodeExternalIP  NodeAddressType = "ExternalIP"
	NodeInternalDNS NodeAddressType = "InternalDNS"
	NodeExternalDNS NodeAddressType = "ExternalDNS"
)

// NodeAddress is one address of a node.
type NodeAddress struct {
	Type    NodeAddressType `json:"type" protobuf:"bytes,1,opt,name=type,casttype=NodeAddressType"`
	Address string          `json:"address" protobuf:"bytes,2,opt,name=address"`
}

// NodeDaemonEndpoints lists the ports of daemons running on the node.
type NodeDaemonEndpoints struct {
	KubeletEndpoint DaemonEndpoint `json:"kubeletEndpoint,omitempty" protobuf:"bytes,1,opt,name=kubeletEndpoint"`
}

// DaemonEndpoint is the port of one node daemon. Its JSON key is "Port",
// capitalized, for compatibility with old servers.
type DaemonEndpoint struct {
	Port int32 `json:"Port" protobuf:"varint,1,opt,name=Port"`
}

// NodeSystemInfo identifies a node's machine and software.
type NodeSystemInfo struct {
	MachineID               string `json:"machineID" protobuf:"bytes,1,opt,name=machineID"`
	SystemUUID              string `json:"systemUUID" protobuf:"bytes,2,opt,name=systemUUID"`
	BootID                  string `json:"bootID" protobuf:"bytes,3,opt,name=bootID"`
	KernelVersion           string `json:"kernelVersion" protobuf:"bytes,4,opt,name=kernelVersion"`
	OSImage                 string `json:"osImage" protobuf:"bytes,5,opt,name=osImage"`
	ContainerRuntimeVersion string `json:"containerRuntimeVersion" protobuf:"bytes,6,opt,name=containerRuntimeVersion"`
	KubeletVersion          string `json:"kubeletVersion" protobuf:"bytes,7,opt,name=kubeletVersion"`
	// KubeProxyVersion is deprecated.
	KubeProxyVersion string          `json:"kubeProxyVersion" protobuf:"bytes,8,opt,name=kubeProxyVersion"`
	OperatingSystem  string          `json:"operatingSystem" protobuf:"bytes,9,opt,name=operatingSystem"`
	Architecture     string          `json:"architecture" protobuf:"bytes,10,opt,name=architecture"`
	Swap             *NodeSwapStatus `json:"swap,omitempty" protobuf:"bytes,11,opt,name=swap"`
}

// NodeSwapStatus reports a node's swap space.
type NodeSwapStatus struct {
	Capacity *int64 `json:"capacity,omitempty" protobuf:"varint,1,opt,name=capacity"`
}

// ContainerImage is an image present on a node.
type ContainerImage struct {
	Names     []string `json:"names" protobuf:"bytes,1,rep,name=names"`
	SizeBytes int64    `json:"sizeBytes,omitempty" protobuf:"varint,2,opt,name=sizeBytes"`
}

// UniqueVolumeName identifies an attachable volume across the cluster.
type UniqueVolumeName string

// AttachedVolume is a volume attached to a node and the device it appears as.
type AttachedVolume struct {
	Name       UniqueVolumeName `json:"name" protobuf:"bytes,1,rep,name=name"`
	DevicePath string           `json:"devicePath" protobuf:"bytes,2,rep,name=devicePath"`
}

// NodeConfigStatus reports the node agent's use of NodeSpec.ConfigSource (deprecated).
type NodeConfigStatus struct {
	Assigned      *NodeConfigSource `json:"assigned,omitempty" protobuf:"bytes,1,opt,name=assigned"`
	Active        *NodeConfigSource `json:"active,omitempty" protobuf:"bytes,2,opt,name=active"`
	LastKnownGood *NodeConfigSource `json:"lastKnownGood,omitempty" protobuf:"bytes,3,opt,name=lastKnownGood"`
	Error         string            `json:"error,omitempty" protobuf:"bytes,4,opt,name=error"`
}

// NodeRuntimeHandler describes one runtime handler of the node; the default one has an empty name.
type NodeRuntimeHandler struct {
	Name     string                      `json:"name" protobuf:"bytes,1,opt,name=name"`
	Features *NodeRuntimeHandlerFeatures `json:"features,omitempty" protobuf:"bytes,2,opt,name=features"`
}

// NodeRuntimeHandlerFeatures lists optional features a runtime handler supports.
type NodeRuntimeHandlerFeatures struct {
	RecursiveReadOnlyMounts *bool `json:"recursiveReadOnlyMounts,omitempty" protobuf:"varint,1,opt,name=recursiveReadOnlyMounts"`
	UserNamespaces          *bool `json:"userNamespaces,omitempty" protobuf:"varint,2,opt,name=userNamespaces"`
}

// NodeFeatures lists optional features of the node's container runtime.
type NodeFeatures struct {
	SupplementalGroupsPolicy *bool `json:"supplementalGroupsPolicy,omitempty" protobuf:"varint,1,opt,name=supplementalGroupsPolicy"`
}
