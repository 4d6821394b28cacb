package v1

// SecurityContext holds a container's security settings; where a field also
// exists in PodSecurityContext, the container's value wins.
type SecurityContext struct {
	Capabilities             *Capabilities                  `json:"capabilities,omitempty" protobuf:"bytes,1,opt,name=capabilities"`
	Privileged               *bool                          `json:"privileged,omitempty" protobuf:"varint,2,opt,name=privileged"`
	SELinuxOptions           *SELinuxOptions                `json:"seLinuxOptions,omitempty" protobuf:"bytes,3,opt,name=seLinuxOptions"`
	WindowsOptions           *WindowsSecurityContextOptions `json:"windowsOptions,omitempty" protobuf:"bytes,10,opt,name=windowsOptions"`
	RunAsUser                *int64                         `json:"runAsUser,omitempty" protobuf:"varint,4,opt,name=runAsUser"`
	RunAsGroup               *int64                         `json:"runAsGroup,omitempty" protobuf:"varint,8,opt,name=runAsGroup"`
	RunAsNonRoot             *bool                          `json:"runAsNonRoot,omitempty" protobuf:"varint,5,opt,name=runAsNonRoot"`
	ReadOnlyRootFilesystem   *bool                          `json:"readOnlyRootFilesystem,omitempty" protobuf:"varint,6,opt,name=readOnlyRootFilesystem"`
	AllowPrivilegeEscalation *bool                          `json:"allowPrivilegeEscalation,omitempty" protobuf:"varint,7,opt,name=allowPrivilegeEscalation"`
	ProcMount                *ProcMountType                 `json:"procMount,omitempty" protobuf:"bytes,9,opt,name=procMount"`
	SeccompProfile           *SeccompProfile                `json:"seccompProfile,omitempty" protobuf:"bytes,11,opt,name=seccompProfile"`
	AppArmorProfile          *AppArmorProfile               `json:"appArmorProfile,omitempty" protobuf:"bytes,12,opt,name=appArmorProfile"`
}

// Capability is a POSIX capability name such as "NET_ADMIN".
type Capability string

// Capabilities lists capabilities to add to and drop from the runtime's default set.
type Capabilities struct {
	Add  []Capability `json:"add,omitempty" protobuf:"bytes,1,rep,name=add,casttype=Capability"`
	Drop []Capability `json:"drop,omitempty" protobuf:"bytes,2,rep,name=drop,casttype=Capability"`
}

// ProcMountType chooses how much of /proc the runtime masks.
type ProcMountType string

// The values of ProcMountType.
const (
	DefaultProcMount  ProcMountType = "Default"
	UnmaskedProcMount ProcMountType = "Unmasked"
)

// SELinuxOptions is an SELinux label.
type SELinuxOptions struct {
	User  string `json:"user,omitempty" protobuf:"bytes,1,opt,name=user"`
	Role  string `json:"role,omitempty" protobuf:"bytes,2,opt,name=role"`
	Type  string `json:"type,omitempty" protobuf:"bytes,3,opt,name=type"`
	Level string `json:"level,omitempty" protobuf:"bytes,4,opt,name=level"`
}

// WindowsSecurityContextOptions holds settings that only apply on Windows nodes.
type WindowsSecurityContextOptions struct {
	GMSACredentialSpecName *string `json:"gmsaCredentialSpecName,omitempty" protobuf:"bytes,1,opt,name=gmsaCredentialSpecName"`
	GMSACredentialSpec     *string `json:"gmsaCredentialSpec,omitempty" protobuf:"bytes,2,opt,name=gmsaCredentialSpec"`
	RunAsUserName          *string `json:"runAsUserName,omitempty" protobuf:"bytes,3,opt,name=runAsUserName"`
	// HostProcess is carried with wire type bytes, as upstream declares it.
	HostProcess *bool `json:"hostProcess,omitempty" protobuf:"bytes,4,opt,name=hostProcess"`
}

// SeccompProfile selects a seccomp profile.
type SeccompProfile struct {
	Type SeccompProfileType `json:"type" protobuf:"bytes,1,opt,name=type,casttype=SeccompProfileType"`
	// LocalhostProfile is a path relative to the node's seccomp directory; only with type Localhost.
	LocalhostProfile *string `json:"localhostProfile,omitempty" protobuf:"bytes,2,opt,name=localhostProfile"`
}

// SeccompProfileType is the kind of seccomp profile.
type SeccompProfileType string

// The values of SeccompProfileType.
const (
	SeccompProfileTypeUnconfined     SeccompProfileType = "Unconfined"
	SeccompProfileTypeRuntimeDefault SeccompProfileType = "RuntimeDefault"
	SeccompProfileTypeLocalhost      SeccompProfileType = "Localhost"
)

// AppArmorProfile selects an AppArmor profile.
type AppArmorProfile struct {
	Type AppArmorProfileType `json:"type" protobuf:"bytes,1,opt,name=type,casttype=AppArmorProfileType"`
	// LocalhostProfile is the name of a profile loaded on the node; only with type Localhost.
	LocalhostProfile *string `json:"localhostProfile,omitempty" protobuf:"bytes,2,opt,name=localhostProfile"`
}

// AppArmorProfileType is the kind of AppArmor profile.
type AppArmorProfileType string

// The values of AppArmorProfileType.
const (
	AppArmorProfileTypeUnconfined     AppArmorProfileType = "Unconfined"
	AppArmorProfileTypeRuntimeDefault AppArmorProfileType = "RuntimeDefault"
	AppArmorProfileTypeLocalhost      AppArmorProfileType = "Localhost"
)

// PodSecurityContext holds pod-wide security settings and defaults for its containers.
type PodSecurityContext struct {
	SELinuxOptions           *SELinuxOptions                `json:"seLinuxOptions,omitempty" protobuf:"bytes,1,opt,name=seLinuxOptions"`
	WindowsOptions           *WindowsSecurityContextOptions `json:"windowsOptions,omitempty" protobuf:"bytes,8,opt,name=windowsOptions"`
	RunAsUser                *int64                         `json:"runAsUser,omitempty" protobuf:"varint,2,opt,name=runAsUser"`
	RunAsGroup               *int64                         `json:"runAsGroup,omitempty" protobuf:"varint,6,opt,name=runAsGroup"`
	RunAsNonRoot             *bool                          `json:"runAsNonRoot,omitempty" protobuf:"varint,3,opt,name=runAsNonRoot"`
	SupplementalGroups       []int64                        `json:"supplementalGroups,omitempty" protobuf:"varint,4,rep,name=supplementalGroups"`
	SupplementalGroupsPolicy *SupplementalGroupsPolicy      `json:"supplementalGroupsPolicy,omitempty" protobuf:"bytes,12,opt,name=supplementalGroupsPolicy"`
	// FSGroup owns supported volumes and is added to every container's groups.
	FSGroup             *int64                  `json:"fsGroup,omitempty" protobuf:"varint,5,opt,name=fsGroup"`
	Sysctls             []Sysctl                `json:"sysctls,omitempty" protobuf:"bytes,7,rep,name=sysctls"`
	FSGroupChangePolicy *PodFSGroupChangePolicy `json:"fsGroupChangePolicy,omitempty" protobuf:"bytes,9,opt,name=fsGroupChangePolicy"`
	SeccompProfile      *SeccompProfile         `json:"seccompProfile,omitempty" protobuf:"bytes,10,opt,name=seccompProfile"`
	AppArmorProfile     *AppArmorProfile        `json:"appArmorProfile,omitempty" protobuf:"bytes,11,opt,name=appArmorProfile"`
	SELinuxChangePolicy *PodSELinuxChangePolicy `json:"seLinuxChangePolicy,omitempty" protobuf:"bytes,13,opt,name=seLinuxChangePolicy"`
}

// Sysctl is a namespaced kernel parameter to set for the pod.
type Sysctl struct {
	Name  string `json:"name" protobuf:"bytes,1,opt,name=name"`
	Value string `json:"value" protobuf:"bytes,2,opt,name=value"`
}

// PodFSGroupChangePolicy says when volume ownership is changed to the fsGroup.
type PodFSGroupChangePolicy string

// The values of PodFSGroupChangePolicy.
const (
	FSGroupChangeOnRootMismatch PodFSGroupChangePolicy = "OnRootMismatch"
	FSGroupChangeAlways         PodFSGroupChangePolicy = "Always"
)

// SupplementalGroupsPolicy says whether the image's group memberships are kept.
type SupplementalGroupsPolicy string

// The values of SupplementalGroupsPolicy.
const (
	SupplementalGroupsPolicyMerge  SupplementalGroupsPolicy = "Merge"
	SupplementalGroupsPolicyStrict SupplementalGroupsPolicy = "Strict"
)

// PodSELinuxChangePolicy says how the pod's SELinux label reaches its volumes.
type PodSELinuxChangePolicy string

// The values of PodSELinuxChangePolicy.
const (
	SELinuxChangePolicyRecursive   PodSELinuxChangePolicy = "Recursive"
	SELinuxChangePolicyMountOption PodSELinuxChangePolicy = "MountOption"
)
