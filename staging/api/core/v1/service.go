package v1

import (
	"platform.io/client/api/intstr"
	"platform.io/client/api/meta"
)

// Service is a stable name and virtual address in front of a set of pods.
type Service struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	Spec   ServiceSpec   `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	Status ServiceStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// ServiceList is a list of services.
type ServiceList struct {
	meta.TypeMeta `json:",inline"`
	meta.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	Items []Service `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// ClusterIPNone as a service's clusterIP makes it headless: no virtual IP is allocated.
const ClusterIPNone = "None"

// ServiceSpec is the desired state of a service.
type ServiceSpec struct {
	Ports    []ServicePort     `json:"ports,omitempty" patchStrategy:"merge" patchMergeKey:"port" protobuf:"bytes,1,rep,name=ports"`
	Selector map[string]string `json:"selector,omitempty" protobuf:"bytes,2,rep,name=selector"`
	// ClusterIP is the virtual IP, "None" for a headless service, or empty to have one allocated.
	ClusterIP  string      `json:"clusterIP,omitempty" protobuf:"bytes,3,opt,name=clusterIP"`
	ClusterIPs []string    `json:"clusterIPs,omitempty" protobuf:"bytes,18,opt,name=clusterIPs"`
	Type       ServiceType `json:"type,omitempty" protobuf:"bytes,4,opt,name=type,casttype=ServiceType"`
	// ExternalIPs are extra addresses nodes accept the service's traffic on.
	ExternalIPs     []string        `json:"externalIPs,omitempty" protobuf:"bytes,5,rep,name=externalIPs"`
	SessionAffinity ServiceAffinity `json:"sessionAffinity,omitempty" protobuf:"bytes,7,opt,name=sessionAffinity,casttype=ServiceAffinity"`
	// LoadBalancerIP is deprecated: its meaning differs between implementations.
	LoadBalancerIP           string                       `json:"loadBalancerIP,omitempty" protobuf:"bytes,8,opt,name=loadBalancerIP"`
	LoadBalancerSourceRanges []string                     `json:"loadBalancerSourceRanges,omitempty" protobuf:"bytes,9,opt,name=loadBalancerSourceRanges"`
	ExternalName             string                       `json:"externalName,omitempty" protobuf:"bytes,10,opt,name=externalName"`
	ExternalTrafficPolicy    ServiceExternalTrafficPolicy `json:"externalTrafficPolicy,omitempty" protobuf:"bytes,11,opt,name=externalTrafficPolicy"`
	// HealthCheckNodePort is carried with wire type bytes, as upstream declares it.
	HealthCheckNodePort      int32                  `json:"healthCheckNodePort,omitempty" protobuf:"bytes,12,opt,name=healthCheckNodePort"`
	PublishNotReadyAddresses bool                   `json:"publishNotReadyAddresses,omitempty" protobuf:"varint,13,opt,name=publishNotReadyAddresses"`
	SessionAffinityConfig    *SessionAffinityConfig `json:"sessionAffinityConfig,omitempty" protobuf:"bytes,14,opt,name=sessionAffinityConfig"`
	// Field numbers 15 and 16 belonged to removed fields and stay reserved.
	IPFamilies                    []IPFamily                    `json:"ipFamilies,omitempty" protobuf:"bytes,19,opt,name=ipFamilies,casttype=IPFamily"`
	IPFamilyPolicy                *IPFamilyPolicy               `json:"ipFamilyPolicy,omitempty" protobuf:"bytes,17,opt,name=ipFamilyPolicy,casttype=IPFamilyPolicy"`
	AllocateLoadBalancerNodePorts *bool                         `json:"allocateLoadBalancerNodePorts,omitempty" protobuf:"bytes,20,opt,name=allocateLoadBalancerNodePorts"`
	LoadBalancerClass             *string                       `json:"loadBalancerClass,omitempty" protobuf:"bytes,21,opt,name=loadBalancerClass"`
	InternalTrafficPolicy         *ServiceInternalTrafficPolicy `json:"internalTrafficPolicy,omitempty" protobuf:"bytes,22,opt,name=internalTrafficPolicy"`
	TrafficDistribution           *string                       `json:"trafficDistribution,omitempty" protobuf:"bytes,23,opt,name=trafficDistribution"`
}

// ServicePort is one port a service exposes.
type ServicePort struct {
	Name     string   `json:"name,omitempty" protobuf:"bytes,1,opt,name=name"`
	Protocol Protocol `json:"protocol,omitempty" protobuf:"bytes,2,opt,name=protocol,casttype=Protocol"`
	// AppProtocol is an IANA service name or a domain-prefixed protocol name.
	AppProtocol *string `json:"appProtocol,omitempty" protobuf:"bytes,6,opt,name=appProtocol"`
	Port        int32   `json:"port" protobuf:"varint,3,opt,name=port"`
	// TargetPort is a port number or the name of a container port on the selected pods.
	TargetPort intstr.IntOrString `json:"targetPort,omitempty" protobuf:"bytes,4,opt,name=targetPort"`
	NodePort   int32              `json:"nodePort,omitempty" protobuf:"varint,5,opt,name=nodePort"`
}

// ServiceType says how a service is exposed.
type ServiceType string

// The values of ServiceType.
const (
	ServiceTypeClusterIP    ServiceType = "ClusterIP"
	ServiceTypeNodePort     ServiceType = "NodePort"
	ServiceTypeLoadBalancer ServiceType = "LoadBalancer"
	ServiceTypeExternalName ServiceType = "ExternalName"
)

// ServiceAffinity is a service's session affinity.
type ServiceAffinity string

// The values of ServiceAffinity.
const (
	ServiceAffinityClientIP ServiceAffinity = "ClientIP"
	ServiceAffinityNone     ServiceAffinity = "None"
)

// DefaultClientIPServiceAffinitySeconds is the default stickiness of ClientIP affinity (3 hours).
const DefaultClientIPServiceAffinitySeconds int32 = 10800

// SessionAffinityConfig tunes session affinity.
type SessionAffinityConfig struct {
	ClientIP *ClientIPConfig `json:"clientIP,omitempty" protobuf:"bytes,1,opt,name=clientIP"`
}

// ClientIPConfig tunes ClientIP session affinity.
type ClientIPConfig struct {
	TimeoutSeconds *int32 `json:"timeoutSeconds,omitempty" protobuf:"varint,1,opt,name=timeoutSeconds"`
}

// ServiceInternalTrafficPolicy says which endpoints serve traffic sent to the cluster IP.
type ServiceInternalTrafficPolicy string

// The values of ServiceInternalTrafficPolicy.
const (
	ServiceInternalTrafficPolicyCluster ServiceInternalTrafficPolicy = "Cluster"
	ServiceInternalTrafficPolicyLocal   ServiceInternalTrafficPolicy = "Local"
)

// ServiceExternalTrafficPolicy says which endpoints serve traffic sent to
// node ports, external IPs and load-balancer IPs.
type ServiceExternalTrafficPolicy string

// The values of ServiceExternalTrafficPolicy.
const (
	ServiceExternalTrafficPolicyCluster ServiceExternalTrafficPolicy = "Cluster"
	ServiceExternalTrafficPolicyLocal   ServiceExternalTrafficPolicy = "Local"
)

// Values of ServiceSpec.TrafficDistribution.
const (
	ServiceTrafficDistributionPreferSameZone = "PreferSameZone"
	ServiceTrafficDistributionPreferSameNode = "PreferSameNode"
	// ServiceTrafficDistributionPreferClose is the older name of PreferSameZone.
	ServiceTrafficDistributionPreferClose = "PreferClose"
)

// IPFamily is an IP address family.
type IPFamily string

// The values of IPFamily.
const (
	IPv4Protocol    IPFamily = "IPv4"
	IPv6Protocol    IPFamily = "IPv6"
	IPFamilyUnknown IPFamily = ""
)

// IPFamilyPolicy says how many IP families a service gets.
type IPFamilyPolicy string

// The values of IPFamilyPolicy.
const (
	IPFamilyPolicySingleStack      IPFamilyPolicy = "SingleStack"
	IPFamilyPolicyPreferDualStack  IPFamilyPolicy = "PreferDualStack"
	IPFamilyPolicyRequireDualStack IPFamilyPolicy = "RequireDualStack"
)

// ServiceStatus is the observed state of a service.
type ServiceStatus struct {
	LoadBalancer LoadBalancerStatus `json:"loadBalancer,omitempty" protobuf:"bytes,1,opt,name=loadBalancer"`
	Conditions   []Condition        `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type" protobuf:"bytes,2,rep,name=conditions"`
}

// Service condition types and reasons.
const (
	LoadBalancerPortsError       = "LoadBalancerPortsError"
	LoadBalancerPortsErrorReason = "LoadBalancerMixedProtocolNotSupported"
)

// LoadBalancerStatus lists the ingress points of a load balancer.
type LoadBalancerStatus struct {
	Ingress []LoadBalancerIngress `json:"ingress,omitempty" protobuf:"bytes,1,rep,name=ingress"`
}

// LoadBalancerIngress is one address traffic for the service should be sent to.
type LoadBalancerIngress struct {
	IP       string              `json:"ip,omitempty" protobuf:"bytes,1,opt,name=ip"`
	Hostname string              `json:"hostname,omitempty" protobuf:"bytes,2,opt,name=hostname"`
	IPMode   *LoadBalancerIPMode `json:"ipMode,omitempty" protobuf:"bytes,3,opt,name=ipMode"`
	Ports    []PortStatus        `json:"ports,omitempty" protobuf:"bytes,4,rep,name=ports"`
}

// LoadBalancerIPMode says how traffic to a load-balancer IP reaches the node.
type LoadBalancerIPMode string

// The values of LoadBalancerIPMode.
const (
	LoadBalancerIPModeVIP   LoadBalancerIPMode = "VIP"
	LoadBalancerIPModeProxy LoadBalancerIPMode = "Proxy"
)

// MixedProtocolNotSupported is a PortStatus error for load balancers that
// cannot mix protocols.
const MixedProtocolNotSupported = "MixedProtocolNotSupported"

// PortStatus reports a problem with one service port on a load balancer.
type PortStatus struct {
	Port     int32    `json:"port" protobuf:"varint,1,opt,name=port"`
	Protocol Protocol `json:"protocol" protobuf:"bytes,2,opt,name=protocol,casttype=Protocol"`
	Error    *string  `json:"error,omitempty" protobuf:"bytes,3,opt,name=error"`
}
