package v1

import "platform.io/client/api/meta"

// Pod is a group of containers scheduled together onto one node.
type Pod struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	Spec   PodSpec   `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	Status PodStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// PodList is a list of pods.
type PodList struct {
	meta.TypeMeta `json:",inline"`
	meta.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	Items []Pod `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// PodTemplateSpec is the metadata and spec controllers stamp new pods from.
type PodTemplateSpec struct {
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	Spec PodSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
}

// PodTemplate is a stored, reusable pod template.
type PodTemplate struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	Template PodTemplateSpec `json:"template,omitempty" protobuf:"bytes,2,opt,name=template"`
}

// PodTemplateList is a list of pod templates.
type PodTemplateList struct {
	meta.TypeMeta `json:",inline"`
	meta.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	Items []PodTemplate `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// DefaultTerminationGracePeriodSeconds is the grace period of a pod that sets none.
const DefaultTerminationGracePeriodSeconds = 30

// DefaultEnableServiceLinks is the value of enableServiceLinks when unset.
const DefaultEnableServiceLinks = true

// MirrorPodAnnotationKey marks a mirror pod: the API copy a node agent
// makes of a static pod it runs from a local file.
const MirrorPodAnnotationKey = "platform.io/config.mirror"

// PodSpec is the desired state of a pod.
type PodSpec struct {
	Volumes             []Volume             `json:"volumes,omitempty" patchStrategy:"merge,retainKeys" patchMergeKey:"name" protobuf:"bytes,1,rep,name=volumes"`
	InitContainers      []Container          `json:"initContainers,omitempty" patchStrategy:"merge" patchMergeKey:"name" protobuf:"bytes,20,rep,name=initContainers"`
	Containers          []Container          `json:"containers" patchStrategy:"merge" patchMergeKey:"name" protobuf:"bytes,2,rep,name=containers"`
	EphemeralContainers []EphemeralContainer `json:"ephemeralContainers,omitempty" patchStrategy:"merge" patchMergeKey:"name" protobuf:"bytes,34,rep,name=ephemeralContainers"`
	RestartPolicy       RestartPolicy        `json:"restartPolicy,omitempty" protobuf:"bytes,3,opt,name=restartPolicy,casttype=RestartPolicy"`
	// TerminationGracePeriodSeconds is the time between the stop signal and SIGKILL; nil means the default of 30.
	TerminationGracePeriodSeconds *int64            `json:"terminationGracePeriodSeconds,omitempty" protobuf:"varint,4,opt,name=terminationGracePeriodSeconds"`
	ActiveDeadlineSeconds         *int64            `json:"activeDeadlineSeconds,omitempty" protobuf:"varint,5,opt,name=activeDeadlineSeconds"`
	DNSPolicy                     DNSPolicy         `json:"dnsPolicy,omitempty" protobuf:"bytes,6,opt,name=dnsPolicy,casttype=DNSPolicy"`
	NodeSelector                  map[string]string `json:"nodeSelector,omitempty" protobuf:"bytes,7,rep,name=nodeSelector"`
	ServiceAccountName            string            `json:"serviceAccountName,omitempty" protobuf:"bytes,8,opt,name=serviceAccountName"`
	// DeprecatedServiceAccount is the old spelling of ServiceAccountName.
	DeprecatedServiceAccount     string `json:"serviceAccount,omitempty" protobuf:"bytes,9,opt,name=serviceAccount"`
	AutomountServiceAccountToken *bool  `json:"automountServiceAccountToken,omitempty" protobuf:"varint,21,opt,name=automountServiceAccountToken"`
	// NodeName is set by the scheduler's binding; once set, that node's agent runs the pod.
	NodeName              string                 `json:"nodeName,omitempty" protobuf:"bytes,10,opt,name=nodeName"`
	HostNetwork           bool                   `json:"hostNetwork,omitempty" protobuf:"varint,11,opt,name=hostNetwork"`
	HostPID               bool                   `json:"hostPID,omitempty" protobuf:"varint,12,opt,name=hostPID"`
	HostIPC               bool                   `json:"hostIPC,omitempty" protobuf:"varint,13,opt,name=hostIPC"`
	ShareProcessNamespace *bool                  `json:"shareProcessNamespace,omitempty" protobuf:"varint,27,opt,name=shareProcessNamespace"`
	SecurityContext       *PodSecurityContext    `json:"securityContext,omitempty" protobuf:"bytes,14,opt,name=securityContext"`
	ImagePullSecrets      []LocalObjectReference `json:"imagePullSecrets,omitempty" patchStrategy:"merge" patchMergeKey:"name" protobuf:"bytes,15,rep,name=imagePullSecrets"`
	Hostname              string                 `json:"hostname,omitempty" protobuf:"bytes,16,opt,name=hostname"`
	Subdomain             string                 `json:"subdomain,omitempty" protobuf:"bytes,17,opt,name=subdomain"`
	Affinity              *Affinity              `json:"affinity,omitempty" protobuf:"bytes,18,opt,name=affinity"`
	SchedulerName         string                 `json:"schedulerName,omitempty" protobuf:"bytes,19,opt,name=schedulerName"`
	Tolerations           []Toleration           `json:"tolerations,omitempty" protobuf:"bytes,22,opt,name=tolerations"`
	HostAliases           []HostAlias            `json:"hostAliases,omitempty" patchStrategy:"merge" patchMergeKey:"ip" protobuf:"bytes,23,rep,name=hostAliases"`
	PriorityClassName     string                 `json:"priorityClassName,omitempty" protobuf:"bytes,24,opt,name=priorityClassName"`
	// Priority is filled from PriorityClassName at admission.
	Priority           *int32             `json:"priority,omitempty" protobuf:"bytes,25,opt,name=priority"`
	DNSConfig          *PodDNSConfig      `json:"dnsConfig,omitempty" protobuf:"bytes,26,opt,name=dnsConfig"`
	ReadinessGates     []PodReadinessGate `json:"readinessGates,omitempty" protobuf:"bytes,28,opt,name=readinessGates"`
	RuntimeClassName   *string            `json:"runtimeClassName,omitempty" protobuf:"bytes,29,opt,name=runtimeClassName"`
	EnableServiceLinks *bool              `json:"enableServiceLinks,omitempty" protobuf:"varint,30,opt,name=enableServiceLinks"`
	PreemptionPolicy   *PreemptionPolicy  `json:"preemptionPolicy,omitempty" protobuf:"bytes,31,opt,name=preemptionPolicy"`
	// Overhead is the runtime class's per-pod cost, set at admission.
	Overhead                  ResourceList               `json:"overhead,omitempty" protobuf:"bytes,32,opt,name=overhead"`
	TopologySpreadConstraints []TopologySpreadConstraint `json:"topologySpreadConstraints,omitempty" patchStrategy:"merge" patchMergeKey:"topologyKey" protobuf:"bytes,33,opt,name=topologySpreadConstraints"`
	SetHostnameAsFQDN         *bool                      `json:"setHostnameAsFQDN,omitempty" protobuf:"varint,35,opt,name=setHostnameAsFQDN"`
	OS                        *PodOS                     `json:"os,omitempty" protobuf:"bytes,36,opt,name=os"`
	HostUsers                 *bool                      `json:"hostUsers,omitempty" protobuf:"bytes,37,opt,name=hostUsers"`
	SchedulingGates           []PodSchedulingGate        `json:"schedulingGates,omitempty" patchStrategy:"merge" patchMergeKey:"name" protobuf:"bytes,38,opt,name=schedulingGates"`
	ResourceClaims            []PodResourceClaim         `json:"resourceClaims,omitempty" patchStrategy:"merge,retainKeys" patchMergeKey:"name" protobuf:"bytes,39,rep,name=resourceClaims"`
	// Resources are pod-level requests and limits shared by all containers.
	Resources        *ResourceRequirements `json:"resources,omitempty" protobuf:"bytes,40,opt,name=resources"`
	HostnameOverride *string               `json:"hostnameOverride,omitempty" protobuf:"bytes,41,opt,name=hostnameOverride"`
	WorkloadRef      *WorkloadReference    `json:"workloadRef,omitempty" protobuf:"bytes,42,opt,name=workloadRef"`
}

// EphemeralContainerCommon has exactly the fields of Container, so the two
// convert into each other.
type EphemeralContainerCommon Container

// EphemeralContainer is a container added to a running pod, typically for debugging.
type EphemeralContainer struct {
	EphemeralContainerCommon `json:",inline" protobuf:"bytes,1,req"`
	// TargetContainerName is the container whose namespaces this one joins.
	TargetContainerName string `json:"targetContainerName,omitempty" protobuf:"bytes,2,opt,name=targetContainerName"`
}

// RestartPolicy is the pod-wide container restart policy.
type RestartPolicy string

// The values of RestartPolicy.
const (
	RestartPolicyAlways    RestartPolicy = "Always"
	RestartPolicyOnFailure RestartPolicy = "OnFailure"
	RestartPolicyNever     RestartPolicy = "Never"
)

// DNSPolicy says how a pod's resolv.conf is built.
type DNSPolicy string

// The values of DNSPolicy.
const (
	DNSClusterFirstWithHostNet DNSPolicy = "ClusterFirstWithHostNet"
	DNSClusterFirst            DNSPolicy = "ClusterFirst"
	DNSDefault                 DNSPolicy = "Default"
	DNSNone                    DNSPolicy = "None"
)

// PreemptionPolicy says whether a pod may evict lower-priority pods.
type PreemptionPolicy string

// The values of PreemptionPolicy.
const (
	PreemptLowerPriority PreemptionPolicy = "PreemptLowerPriority"
	PreemptNever         PreemptionPolicy = "Never"
)

// PodDNSConfig adds to the DNS settings the DNS policy produces.
type PodDNSConfig struct {
	Nameservers []string             `json:"nameservers,omitempty" protobuf:"bytes,1,rep,name=nameservers"`
	Searches    []string             `json:"searches,omitempty" protobuf:"bytes,2,rep,name=searches"`
	Options     []PodDNSConfigOption `json:"options,omitempty" protobuf:"bytes,3,rep,name=options"`
}

// PodDNSConfigOption is one resolver option, such as ndots:2.
type PodDNSConfigOption struct {
	Name  string  `json:"name,omitempty" protobuf:"bytes,1,opt,name=name"`
	Value *string `json:"value,omitempty" protobuf:"bytes,2,opt,name=value"`
}

// HostAlias is an extra /etc/hosts entry for the pod.
type HostAlias struct {
	IP        string   `json:"ip" protobuf:"bytes,1,opt,name=ip"`
	Hostnames []string `json:"hostnames,omitempty" protobuf:"bytes,2,rep,name=hostnames"`
}

// PodReadinessGate names an extra condition that must be True for the pod to be Ready.
type PodReadinessGate struct {
	ConditionType PodConditionType `json:"conditionType" protobuf:"bytes,1,opt,name=conditionType,casttype=PodConditionType"`
}

// OSName is an operating system a pod can target.
type OSName string

// The values of OSName.
const (
	Linux   OSName = "linux"
	Windows OSName = "windows"
)

// PodOS declares the operating system a pod's containers need.
type PodOS struct {
	Name OSName `json:"name" protobuf:"bytes,1,opt,name=name"`
}

// PodSchedulingGate holds a pod back from scheduling until it is removed.
type PodSchedulingGate struct {
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
}

// PodResourceClaim gives a pod-local name to a ResourceClaim, or to a claim
// made from a ResourceClaimTemplate; exactly one of the two names is set.
type PodResourceClaim struct {
	Name                      string  `json:"name" protobuf:"bytes,1,opt,name=name"`
	ResourceClaimName         *string `json:"resourceClaimName,omitempty" protobuf:"bytes,3,opt,name=resourceClaimName"`
	ResourceClaimTemplateName *string `json:"resourceClaimTemplateName,omitempty" protobuf:"bytes,4,opt,name=resourceClaimTemplateName"`
}

// WorkloadReference ties a pod to a Workload object and one of its pod groups.
type WorkloadReference struct {
	Name               string `json:"name" protobuf:"bytes,1,opt,name=name"`
	PodGroup           string `json:"podGroup" protobuf:"bytes,2,opt,name=podGroup"`
	PodGroupReplicaKey string `json:"podGroupReplicaKey,omitempty" protobuf:"bytes,3,opt,name=podGroupReplicaKey"`
}

// PodStatus is the observed state of a pod.
type PodStatus struct {
	ObservedGeneration int64          `json:"observedGeneration,omitempty" protobuf:"varint,17,opt,name=observedGeneration"`
	Phase              PodPhase       `json:"phase,omitempty" protobuf:"bytes,1,opt,name=phase,casttype=PodPhase"`
	Conditions         []PodCondition `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type" protobuf:"bytes,2,rep,name=conditions"`
	Message            string         `json:"message,omitempty" protobuf:"bytes,3,opt,name=message"`
	Reason             string         `json:"reason,omitempty" protobuf:"bytes,4,opt,name=reason"`
	// NominatedNodeName is where a preempting pod expects to run once its victims are gone.
	NominatedNodeName     string            `json:"nominatedNodeName,omitempty" protobuf:"bytes,11,opt,name=nominatedNodeName"`
	HostIP                string            `json:"hostIP,omitempty" protobuf:"bytes,5,opt,name=hostIP"`
	HostIPs               []HostIP          `json:"hostIPs,omitempty" patchStrategy:"merge" patchMergeKey:"ip" protobuf:"bytes,16,rep,name=hostIPs"`
	PodIP                 string            `json:"podIP,omitempty" protobuf:"bytes,6,opt,name=podIP"`
	PodIPs                []PodIP           `json:"podIPs,omitempty" patchStrategy:"merge" patchMergeKey:"ip" protobuf:"bytes,12,rep,name=podIPs"`
	StartTime             *meta.Time        `json:"startTime,omitempty" protobuf:"bytes,7,opt,name=startTime"`
	InitContainerStatuses []ContainerStatus `json:"initContainerStatuses,omitempty" protobuf:"bytes,10,rep,name=initContainerStatuses"`
	ContainerStatuses     []ContainerStatus `json:"containerStatuses,omitempty" protobuf:"bytes,8,rep,name=containerStatuses"`
	// QOSClass is carried as a repeated field, as upstream declares it.
	QOSClass                    PodQOSClass                     `json:"qosClass,omitempty" protobuf:"bytes,9,rep,name=qosClass"`
	EphemeralContainerStatuses  []ContainerStatus               `json:"ephemeralContainerStatuses,omitempty" protobuf:"bytes,13,rep,name=ephemeralContainerStatuses"`
	Resize                      PodResizeStatus                 `json:"resize,omitempty" protobuf:"bytes,14,opt,name=resize,casttype=PodResizeStatus"`
	ResourceClaimStatuses       []PodResourceClaimStatus        `json:"resourceClaimStatuses,omitempty" patchStrategy:"merge,retainKeys" patchMergeKey:"name" protobuf:"bytes,15,rep,name=resourceClaimStatuses"`
	ExtendedResourceClaimStatus *PodExtendedResourceClaimStatus `json:"extendedResourceClaimStatus,omitempty" protobuf:"bytes,18,opt,name=extendedResourceClaimStatus"`
	AllocatedResources          ResourceList                    `json:"allocatedResources,omitempty" protobuf:"bytes,19,rep,name=allocatedResources,casttype=ResourceList,castkey=ResourceName"`
	Resources                   *ResourceRequirements           `json:"resources,omitempty" protobuf:"bytes,20,opt,name=resources"`
}

// PodPhase is the coarse lifecycle stage of a pod.
type PodPhase string

// The values of PodPhase.
const (
	PodPending   PodPhase = "Pending"
	PodRunning   PodPhase = "Running"
	PodSucceeded PodPhase = "Succeeded"
	PodFailed    PodPhase = "Failed"
	// PodUnknown is no longer set by any component.
	PodUnknown PodPhase = "Unknown"
)

// PodConditionType names a pod condition.
type PodConditionType string

// The built-in pod conditions.
const (
	ContainersReady           PodConditionType = "ContainersReady"
	PodInitialized            PodConditionType = "Initialized"
	PodReady                  PodConditionType = "Ready"
	PodScheduled              PodConditionType = "PodScheduled"
	DisruptionTarget          PodConditionType = "DisruptionTarget"
	PodReadyToStartContainers PodConditionType = "PodReadyToStartContainers"
	PodResizePending          PodConditionType = "PodResizePending"
	PodResizeInProgress       PodConditionType = "PodResizeInProgress"
	AllContainersRestarting   PodConditionType = "AllContainersRestarting"
)

// Reasons recorded on pod conditions.
const (
	PodReasonUnschedulable         = "Unschedulable"
	PodReasonSchedulingGated       = "SchedulingGated"
	PodReasonSchedulerError        = "SchedulerError"
	PodReasonTerminationByKubelet  = "TerminationByKubelet"
	PodReasonPreemptionByScheduler = "PreemptionByScheduler"
	PodReasonDeferred              = "Deferred"
	PodReasonInfeasible            = "Infeasible"
	PodReasonError                 = "Error"
)

// PodCondition is one observed condition of a pod.
type PodCondition struct {
	Type               PodConditionType `json:"type" protobuf:"bytes,1,opt,name=type,casttype=PodConditionType"`
	ObservedGeneration int64            `json:"observedGeneration,omitempty" protobuf:"varint,7,opt,name=observedGeneration"`
	Status             ConditionStatus  `json:"status" protobuf:"bytes,2,opt,name=status,casttype=ConditionStatus"`
	LastProbeTime      meta.Time        `json:"lastProbeTime,omitempty" protobuf:"bytes,3,opt,name=lastProbeTime"`
	LastTransitionTime meta.Time        `json:"lastTransitionTime,omitempty" protobuf:"bytes,4,opt,name=lastTransitionTime"`
	Reason             string           `json:"reason,omitempty" protobuf:"bytes,5,opt,name=reason"`
	Message            string           `json:"message,omitempty" protobuf:"bytes,6,opt,name=message"`
}

// PodQOSClass is the quality-of-service class derived from a pod's resources.
type PodQOSClass string

// The values of PodQOSClass.
const (
	PodQOSGuaranteed PodQOSClass = "Guaranteed"
	PodQOSBurstable  PodQOSClass = "Burstable"
	PodQOSBestEffort PodQOSClass = "BestEffort"
)

// PodResizeStatus is the deprecated summary of an in-place resize; the
// PodResizePending and PodResizeInProgress conditions replace it.
type PodResizeStatus string

// The values of PodResizeStatus.
const (
	PodResizeStatusInProgress PodResizeStatus = "InProgress"
	PodResizeStatusDeferred   PodResizeStatus = "Deferred"
	PodResizeStatusInfeasible PodResizeStatus = "Infeasible"
)

// PodIP is one address of a pod.
type PodIP struct {
	IP string `json:"ip" protobuf:"bytes,1,opt,name=ip"`
}

// HostIP is one address of the node a pod runs on.
type HostIP struct {
	IP string `json:"ip" protobuf:"bytes,1,opt,name=ip"`
}

// PodResourceClaimStatus records the name of the claim generated for a PodResourceClaim.
type PodResourceClaimStatus struct {
	Name              string  `json:"name" protobuf:"bytes,1,opt,name=name"`
	ResourceClaimName *string `json:"resourceClaimName,omitempty" protobuf:"bytes,2,opt,name=resourceClaimName"`
}

// PodExtendedResourceClaimStatus records the claim the scheduler made for
// extended resources backed by dynamic resource allocation.
type PodExtendedResourceClaimStatus struct {
	RequestMappings   []ContainerExtendedResourceRequest `json:"requestMappings" protobuf:"bytes,1,rep,name=requestMappings"`
	ResourceClaimName string                             `json:"resourceClaimName" protobuf:"bytes,2,opt,name=resourceClaimName"`
}

// ContainerExtendedResourceRequest maps a container's extended resource to a request in the claim.
type ContainerExtendedResourceRequest struct {
	ContainerName string `json:"containerName" protobuf:"bytes,1,opt,name=containerName"`
	ResourceName  string `json:"resourceName" protobuf:"bytes,2,opt,name=resourceName"`
	RequestName   string `json:"requestName" protobuf:"bytes,3,opt,name=requestName"`
}
