package v1

import "platform.io/client/api/meta"

// ContainerStatus is the observed state of one container of a pod.
type ContainerStatus struct {
	Name  string         `json:"name" protobuf:"bytes,1,opt,name=name"`
	State ContainerState `json:"state,omitempty" protobuf:"bytes,2,opt,name=state"`
	// LastTerminationState is how the previous run of the container ended.
	LastTerminationState ContainerState `json:"lastState,omitempty" protobuf:"bytes,3,opt,name=lastState"`
	Ready                bool           `json:"ready" protobuf:"varint,4,opt,name=ready"`
	RestartCount         int32          `json:"restartCount" protobuf:"varint,5,opt,name=restartCount"`
	Image                string         `json:"image" protobuf:"bytes,6,opt,name=image"`
	ImageID              string         `json:"imageID" protobuf:"bytes,7,opt,name=imageID"`
	// ContainerID has the form "<runtime>://<id>".
	ContainerID string `json:"containerID,omitempty" protobuf:"bytes,8,opt,name=containerID"`
	// Started is true once the postStart hook ran and the startup probe passed.
	Started                  *bool                 `json:"started,omitempty" protobuf:"varint,9,opt,name=started"`
	AllocatedResources       ResourceList          `json:"allocatedResources,omitempty" protobuf:"bytes,10,rep,name=allocatedResources,casttype=ResourceList,castkey=ResourceName"`
	Resources                *ResourceRequirements `json:"resources,omitempty" protobuf:"bytes,11,opt,name=resources"`
	VolumeMounts             []VolumeMountStatus   `json:"volumeMounts,omitempty" patchStrategy:"merge" patchMergeKey:"mountPath" protobuf:"bytes,12,rep,name=volumeMounts"`
	User                     *ContainerUser        `json:"user,omitempty" protobuf:"bytes,13,opt,name=user,casttype=ContainerUser"`
	AllocatedResourcesStatus []ResourceStatus      `json:"allocatedResourcesStatus,omitempty" patchStrategy:"merge" patchMergeKey:"name" protobuf:"bytes,14,rep,name=allocatedResourcesStatus"`
	StopSignal               *Signal               `json:"stopSignal,omitempty" protobuf:"bytes,15,opt,name=stopSignal"`
}

// ContainerState is the state a container is in; at most one member is set,
// and none means waiting.
type ContainerState struct {
	Waiting    *ContainerStateWaiting    `json:"waiting,omitempty" protobuf:"bytes,1,opt,name=waiting"`
	Running    *ContainerStateRunning    `json:"running,omitempty" protobuf:"bytes,2,opt,name=running"`
	Terminated *ContainerStateTerminated `json:"terminated,omitempty" protobuf:"bytes,3,opt,name=terminated"`
}

// ContainerStateWaiting says why a container is not running yet.
type ContainerStateWaiting struct {
	Reason  string `json:"reason,omitempty" protobuf:"bytes,1,opt,name=reason"`
	Message string `json:"message,omitempty" protobuf:"bytes,2,opt,name=message"`
}

// ContainerStateRunning records when a running container started.
type ContainerStateRunning struct {
	StartedAt meta.Time `json:"startedAt,omitempty" protobuf:"bytes,1,opt,name=startedAt"`
}

// ContainerStateTerminated records how a container's last run ended.
type ContainerStateTerminated struct {
	ExitCode    int32     `json:"exitCode" protobuf:"varint,1,opt,name=exitCode"`
	Signal      int32     `json:"signal,omitempty" protobuf:"varint,2,opt,name=signal"`
	Reason      string    `json:"reason,omitempty" protobuf:"bytes,3,opt,name=reason"`
	Message     string    `json:"message,omitempty" protobuf:"bytes,4,opt,name=message"`
	StartedAt   meta.Time `json:"startedAt,omitempty" protobuf:"bytes,5,opt,name=startedAt"`
	FinishedAt  meta.Time `json:"finishedAt,omitempty" protobuf:"bytes,6,opt,name=finishedAt"`
	ContainerID string    `json:"containerID,omitempty" protobuf:"bytes,7,opt,name=containerID"`
}

// VolumeMountStatus reports how a volume mount was actually made.
type VolumeMountStatus struct {
	Name              string                 `json:"name" protobuf:"bytes,1,opt,name=name"`
	MountPath         string                 `json:"mountPath" protobuf:"bytes,2,opt,name=mountPath"`
	ReadOnly          bool                   `json:"readOnly,omitempty" protobuf:"varint,3,opt,name=readOnly"`
	RecursiveReadOnly *RecursiveReadOnlyMode `json:"recursiveReadOnly,omitempty" protobuf:"bytes,4,opt,name=recursiveReadOnly,casttype=RecursiveReadOnlyMode"`
	// VolumeStatus is serialized under the key "volumeStatus", not inlined.
	VolumeStatus `json:"volumeStatus,omitempty" protobuf:"bytes,5,opt,name=volumeStatus"`
}

// VolumeStatus holds source-specific status of a mounted volume; at most one member is set.
type VolumeStatus struct {
	Image *ImageVolumeStatus `json:"image,omitempty" protobuf:"bytes,1,opt,name=image"`
}

// ImageVolumeStatus reports the digest an image volume resolved to.
type ImageVolumeStatus struct {
	ImageRef string `json:"imageRef,omitempty" protobuf:"bytes,1,opt,name=imageRef"`
}

// ResourceStatus reports the health of the devices behind one allocated resource.
type ResourceStatus struct {
	Name      ResourceName     `json:"name" protobuf:"bytes,1,opt,name=name"`
	Resources []ResourceHealth `json:"resources,omitempty" protobuf:"bytes,2,rep,name=resources"`
}

// ResourceID identifies one device, e.g. "<driver>/<pool>/<device>".
type ResourceID string

// ResourceHealthStatus is the health of one device.
type ResourceHealthStatus string

// The values of ResourceHealthStatus.
const (
	ResourceHealthStatusHealthy   ResourceHealthStatus = "Healthy"
	ResourceHealthStatusUnhealthy ResourceHealthStatus = "Unhealthy"
	ResourceHealthStatusUnknown   ResourceHealthStatus = "Unknown"
)

// ResourceHealth is the latest health report of one device.
type ResourceHealth struct {
	ResourceID ResourceID           `json:"resourceID" protobuf:"bytes,1,opt,name=resourceID"`
	Health     ResourceHealthStatus `json:"health,omitempty" protobuf:"bytes,2,opt,name=health"`
}

// ContainerUser is the identity the container's first process started with.
type ContainerUser struct {
	Linux *LinuxContainerUser `json:"linux,omitempty" protobuf:"bytes,1,opt,name=linux,casttype=LinuxContainerUser"`
}

// LinuxContainerUser is a Linux uid, gid and supplemental groups.
type LinuxContainerUser struct {
	UID                int64   `json:"uid" protobuf:"varint,1,opt,name=uid"`
	GID                int64   `json:"gid" protobuf:"varint,2,opt,name=gid"`
	SupplementalGroups []int64 `json:"supplementalGroups,omitempty" protobuf:"varint,3,rep,name=supplementalGroups"`
}
