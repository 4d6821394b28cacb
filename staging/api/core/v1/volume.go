package v1

import (
	"platform.io/client/api/meta"
	"platform.io/client/api/resource"
)

// Volume is a named volume that the containers of a pod can mount.
type Volume struct {
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
	// VolumeSource is inlined: exactly one of its members says where the data comes from.
	VolumeSource `json:",inline" protobuf:"bytes,2,opt,name=volumeSource"`
}

// VolumeSource says where a volume's data comes from. Exactly one member is
// set. Only the commonly used sources are modelled; the cloud- and
// vendor-specific in-tree plugins upstream deprecated are left out, and their
// field numbers (3-5, 7-9, 11-15, 17, 18, 20-25, 27, 29) stay reserved.
type VolumeSource struct {
	HostPath              *HostPathVolumeSource              `json:"hostPath,omitempty" protobuf:"bytes,1,opt,name=hostPath"`
	EmptyDir              *EmptyDirVolumeSource              `json:"emptyDir,omitempty" protobuf:"bytes,2,opt,name=emptyDir"`
	Secret                *SecretVolumeSource                `json:"secret,omitempty" protobuf:"bytes,6,opt,name=secret"`
	NFS                   *NFSVolumeSource                   `json:"nfs,omitempty" protobuf:"bytes,7,opt,name=nfs"`
	PersistentVolumeClaim *PersistentVolumeClaimVolumeSource `json:"persistentVolumeClaim,omitempty" protobuf:"bytes,10,opt,name=persistentVolumeClaim"`
	DownwardAPI           *DownwardAPIVolumeSource           `json:"downwardAPI,omitempty" protobuf:"bytes,16,opt,name=downwardAPI"`
	ConfigMap             *ConfigMapVolumeSource             `json:"configMap,omitempty" protobuf:"bytes,19,opt,name=configMap"`
	Projected             *ProjectedVolumeSource             `json:"projected,omitempty" protobuf:"bytes,26,opt,name=projected"`
	CSI                   *CSIVolumeSource                   `json:"csi,omitempty" protobuf:"bytes,28,opt,name=csi"`
	Image                 *ImageVolumeSource                 `json:"image,omitempty" protobuf:"bytes,30,opt,name=image"`
}

// HostPathType says what must (or will be made to) exist at a hostPath.
type HostPathType string

// The values of HostPathType.
const (
	HostPathUnset             HostPathType = ""
	HostPathDirectoryOrCreate HostPathType = "DirectoryOrCreate"
	HostPathDirectory         HostPathType = "Directory"
	HostPathFileOrCreate      HostPathType = "FileOrCreate"
	HostPathFile              HostPathType = "File"
	HostPathSocket            HostPathType = "Socket"
	HostPathCharDev           HostPathType = "CharDevice"
	HostPathBlockDev          HostPathType = "BlockDevice"
)

// HostPathVolumeSource mounts a file or directory of the node into the pod.
type HostPathVolumeSource struct {
	Path string        `json:"path" protobuf:"bytes,1,opt,name=path"`
	Type *HostPathType `json:"type,omitempty" protobuf:"bytes,2,opt,name=type"`
}

// StorageMedium chooses what backs an emptyDir.
type StorageMedium string

// The values of StorageMedium.
const (
	StorageMediumDefault         StorageMedium = ""
	StorageMediumMemory          StorageMedium = "Memory"
	StorageMediumHugePages       StorageMedium = "HugePages"
	StorageMediumHugePagesPrefix StorageMedium = "HugePages-"
)

// EmptyDirVolumeSource is scratch space that lives as long as the pod.
type EmptyDirVolumeSource struct {
	Medium    StorageMedium      `json:"medium,omitempty" protobuf:"bytes,1,opt,name=medium,casttype=StorageMedium"`
	SizeLimit *resource.Quantity `json:"sizeLimit,omitempty" protobuf:"bytes,2,opt,name=sizeLimit"`
}

// Default file modes of the projecting volume sources (0644).
const (
	SecretVolumeSourceDefaultMode      int32 = 0644
	ConfigMapVolumeSourceDefaultMode   int32 = 0644
	DownwardAPIVolumeSourceDefaultMode int32 = 0644
	ProjectedVolumeSourceDefaultMode   int32 = 0644
)

// KeyToPath maps one key of a secret or config map to a file in the volume.
type KeyToPath struct {
	Key  string `json:"key" protobuf:"bytes,1,opt,name=key"`
	Path string `json:"path" protobuf:"bytes,2,opt,name=path"`
	Mode *int32 `json:"mode,omitempty" protobuf:"varint,3,opt,name=mode"`
}

// SecretVolumeSource presents a secret's keys as files.
type SecretVolumeSource struct {
	SecretName string      `json:"secretName,omitempty" protobuf:"bytes,1,opt,name=secretName"`
	Items      []KeyToPath `json:"items,omitempty" protobuf:"bytes,2,rep,name=items"`
	// DefaultMode is carried with wire type bytes, as upstream declares it.
	DefaultMode *int32 `json:"defaultMode,omitempty" protobuf:"bytes,3,opt,name=defaultMode"`
	Optional    *bool  `json:"optional,omitempty" protobuf:"varint,4,opt,name=optional"`
}

// ConfigMapVolumeSource presents a config map's keys as files.
type ConfigMapVolumeSource struct {
	LocalObjectReference `json:",inline" protobuf:"bytes,1,opt,name=localObjectReference"`
	Items                []KeyToPath `json:"items,omitempty" protobuf:"bytes,2,rep,name=items"`
	DefaultMode          *int32      `json:"defaultMode,omitempty" protobuf:"varint,3,opt,name=defaultMode"`
	Optional             *bool       `json:"optional,omitempty" protobuf:"varint,4,opt,name=optional"`
}

// PersistentVolumeClaimVolumeSource mounts the volume bound to a claim in the pod's namespace.
type PersistentVolumeClaimVolumeSource struct {
	ClaimName string `json:"claimName" protobuf:"bytes,1,opt,name=claimName"`
	ReadOnly  bool   `json:"readOnly,omitempty" protobuf:"varint,2,opt,name=readOnly"`
}

// NFSVolumeSource mounts an export of an NFS server.
type NFSVolumeSource struct {
	Server   string `json:"server" protobuf:"bytes,1,opt,name=server"`
	Path     string `json:"path" protobuf:"bytes,2,opt,name=path"`
	ReadOnly bool   `json:"readOnly,omitempty" protobuf:"varint,3,opt,name=readOnly"`
}

// CSIVolumeSource is an inline ephemeral volume provided by a CSI driver.
type CSIVolumeSource struct {
	Driver               string                `json:"driver" protobuf:"bytes,1,opt,name=driver"`
	ReadOnly             *bool                 `json:"readOnly,omitempty" protobuf:"varint,2,opt,name=readOnly"`
	FSType               *string               `json:"fsType,omitempty" protobuf:"bytes,3,opt,name=fsType"`
	VolumeAttributes     map[string]string     `json:"volumeAttributes,omitempty" protobuf:"bytes,4,rep,name=volumeAttributes"`
	NodePublishSecretRef *LocalObjectReference `json:"nodePublishSecretRef,omitempty" protobuf:"bytes,5,opt,name=nodePublishSecretRef"`
}

// ImageVolumeSource mounts the content of an OCI image or artifact read-only.
type ImageVolumeSource struct {
	Reference  string     `json:"reference,omitempty" protobuf:"bytes,1,opt,name=reference"`
	PullPolicy PullPolicy `json:"pullPolicy,omitempty" protobuf:"bytes,2,opt,name=pullPolicy,casttype=PullPolicy"`
}

// DownwardAPIVolumeSource writes facts about the pod into files.
type DownwardAPIVolumeSource struct {
	Items       []DownwardAPIVolumeFile `json:"items,omitempty" protobuf:"bytes,1,rep,name=items"`
	DefaultMode *int32                  `json:"defaultMode,omitempty" protobuf:"varint,2,opt,name=defaultMode"`
}

// DownwardAPIVolumeFile is one file of a downward API volume: a pod field or
// a container resource.
type DownwardAPIVolumeFile struct {
	Path             string                 `json:"path" protobuf:"bytes,1,opt,name=path"`
	FieldRef         *ObjectFieldSelector   `json:"fieldRef,omitempty" protobuf:"bytes,2,opt,name=fieldRef"`
	ResourceFieldRef *ResourceFieldSelector `json:"resourceFieldRef,omitempty" protobuf:"bytes,3,opt,name=resourceFieldRef"`
	Mode             *int32                 `json:"mode,omitempty" protobuf:"varint,4,opt,name=mode"`
}

// ProjectedVolumeSource merges several sources into one directory.
type ProjectedVolumeSource struct {
	Sources     []VolumeProjection `json:"sources" protobuf:"bytes,1,rep,name=sources"`
	DefaultMode *int32             `json:"defaultMode,omitempty" protobuf:"varint,2,opt,name=defaultMode"`
}

// VolumeProjection is one source of a projected volume; exactly one member is set.
type VolumeProjection struct {
	Secret              *SecretProjection              `json:"secret,omitempty" protobuf:"bytes,1,opt,name=secret"`
	DownwardAPI         *DownwardAPIProjection         `json:"downwardAPI,omitempty" protobuf:"bytes,2,opt,name=downwardAPI"`
	ConfigMap           *ConfigMapProjection           `json:"configMap,omitempty" protobuf:"bytes,3,opt,name=configMap"`
	ServiceAccountToken *ServiceAccountTokenProjection `json:"serviceAccountToken,omitempty" protobuf:"bytes,4,opt,name=serviceAccountToken"`
	ClusterTrustBundle  *ClusterTrustBundleProjection  `json:"clusterTrustBundle,omitempty" protobuf:"bytes,5,opt,name=clusterTrustBundle"`
	PodCertificate      *PodCertificateProjection      `json:"podCertificate,omitempty" protobuf:"bytes,6,opt,name=podCertificate"`
}

// SecretProjection projects a secret's keys; like SecretVolumeSource without a default mode.
type SecretProjection struct {
	LocalObjectReference `json:",inline" protobuf:"bytes,1,opt,name=localObjectReference"`
	Items                []KeyToPath `json:"items,omitempty" protobuf:"bytes,2,rep,name=items"`
	Optional             *bool       `json:"optional,omitempty" protobuf:"varint,4,opt,name=optional"`
}

// ConfigMapProjection projects a config map's keys.
type ConfigMapProjection struct {
	LocalObjectReference `json:",inline" protobuf:"bytes,1,opt,name=localObjectReference"`
	Items                []KeyToPath `json:"items,omitempty" protobuf:"bytes,2,rep,name=items"`
	Optional             *bool       `json:"optional,omitempty" protobuf:"varint,4,opt,name=optional"`
}

// DownwardAPIProjection projects pod facts.
type DownwardAPIProjection struct {
	Items []DownwardAPIVolumeFile `json:"items,omitempty" protobuf:"bytes,1,rep,name=items"`
}

// ServiceAccountTokenProjection writes a bound, auto-rotated service account token.
type ServiceAccountTokenProjection struct {
	Audience          string `json:"audience,omitempty" protobuf:"bytes,1,rep,name=audience"`
	ExpirationSeconds *int64 `json:"expirationSeconds,omitempty" protobuf:"varint,2,opt,name=expirationSeconds"`
	Path              string `json:"path" protobuf:"bytes,3,opt,name=path"`
}

// ClusterTrustBundleProjection writes the certificates of selected ClusterTrustBundles.
type ClusterTrustBundleProjection struct {
	Name          *string             `json:"name,omitempty" protobuf:"bytes,1,rep,name=name"`
	SignerName    *string             `json:"signerName,omitempty" protobuf:"bytes,2,rep,name=signerName"`
	LabelSelector *meta.LabelSelector `json:"labelSelector,omitempty" protobuf:"bytes,3,rep,name=labelSelector"`
	Optional      *bool               `json:"optional,omitempty" protobuf:"varint,5,opt,name=optional"`
	Path          string              `json:"path" protobuf:"bytes,4,rep,name=path"`
}

// PodCertificateProjection writes a private key and a certificate chain
// issued for the pod by the named signer.
type PodCertificateProjection struct {
	SignerName           string            `json:"signerName,omitempty" protobuf:"bytes,1,rep,name=signerName"`
	KeyType              string            `json:"keyType,omitempty" protobuf:"bytes,2,rep,name=keyType"`
	MaxExpirationSeconds *int32            `json:"maxExpirationSeconds,omitempty" protobuf:"varint,3,opt,name=maxExpirationSeconds"`
	CredentialBundlePath string            `json:"credentialBundlePath,omitempty" protobuf:"bytes,4,rep,name=credentialBundlePath"`
	KeyPath              string            `json:"keyPath,omitempty" protobuf:"bytes,5,rep,name=keyPath"`
	CertificateChainPath string            `json:"certificateChainPath,omitempty" protobuf:"bytes,6,rep,name=certificateChainPath"`
	UserAnnotations      map[string]string `json:"userAnnotations,omitempty" protobuf:"bytes,7,rep,name=userAnnotations"`
}

// VolumeMount mounts a pod volume into a container's filesystem.
type VolumeMount struct {
	Name              string                 `json:"name" protobuf:"bytes,1,opt,name=name"`
	ReadOnly          bool                   `json:"readOnly,omitempty" protobuf:"varint,2,opt,name=readOnly"`
	RecursiveReadOnly *RecursiveReadOnlyMode `json:"recursiveReadOnly,omitempty" protobuf:"bytes,7,opt,name=recursiveReadOnly,casttype=RecursiveReadOnlyMode"`
	MountPath         string                 `json:"mountPath" protobuf:"bytes,3,opt,name=mountPath"`
	SubPath           string                 `json:"subPath,omitempty" protobuf:"bytes,4,opt,name=subPath"`
	MountPropagation  *MountPropagationMode  `json:"mountPropagation,omitempty" protobuf:"bytes,5,opt,name=mountPropagation,casttype=MountPropagationMode"`
	// SubPathExpr is SubPath with $(VAR) references expanded from the container's environment.
	SubPathExpr string `json:"subPathExpr,omitempty" protobuf:"bytes,6,opt,name=subPathExpr"`
}

// MountPropagationMode says whether mounts propagate between host and container.
type MountPropagationMode string

// The values of MountPropagationMode.
const (
	MountPropagationNone            MountPropagationMode = "None"
	MountPropagationHostToContainer MountPropagationMode = "HostToContainer"
	MountPropagationBidirectional   MountPropagationMode = "Bidirectional"
)

// RecursiveReadOnlyMode says whether a read-only mount is also read-only below its submounts.
type RecursiveReadOnlyMode string

// The values of RecursiveReadOnlyMode.
const (
	RecursiveReadOnlyDisabled   RecursiveReadOnlyMode = "Disabled"
	RecursiveReadOnlyIfPossible RecursiveReadOnlyMode = "IfPossible"
	RecursiveReadOnlyEnabled    RecursiveReadOnlyMode = "Enabled"
)

// VolumeDevice maps a raw block volume to a device path in a container.
type VolumeDevice struct {
	Name       string `json:"name" protobuf:"bytes,1,opt,name=name"`
	DevicePath string `json:"devicePath" protobuf:"bytes,2,opt,name=devicePath"`
}
