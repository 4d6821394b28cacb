package v1

import (
	"platform.io/client/api/resource"
)

// TerminationMessagePathDefault is where a container writes its termination message unless told otherwise.
const TerminationMessagePathDefault = "/dev/termination-log"

// Container is one application container of a pod.
type Container struct {
	Name       string          `json:"name" protobuf:"bytes,1,opt,name=name"`
	Image      string          `json:"image,omitempty" protobuf:"bytes,2,opt,name=image"`
	Command    []string        `json:"command,omitempty" protobuf:"bytes,3,rep,name=command"`
	Args       []string        `json:"args,omitempty" protobuf:"bytes,4,rep,name=args"`
	WorkingDir string          `json:"workingDir,omitempty" protobuf:"bytes,5,opt,name=workingDir"`
	Ports      []ContainerPort `json:"ports,omitempty" patchStrategy:"merge" patchMergeKey:"containerPort" protobuf:"bytes,6,rep,name=ports"`
	EnvFrom    []EnvFromSource `json:"envFrom,omitempty" protobuf:"bytes,19,rep,name=envFrom"`
	Env        []EnvVar        `json:"env,omitempty" patchStrategy:"merge" patchMergeKey:"name" protobuf:"bytes,7,rep,name=env"`
	// Resources are the container's requests and limits.
	Resources    ResourceRequirements    `json:"resources,omitempty" protobuf:"bytes,8,opt,name=resources"`
	ResizePolicy []ContainerResizePolicy `json:"resizePolicy,omitempty" protobuf:"bytes,23,rep,name=resizePolicy"`
	// RestartPolicy overrides the pod's policy for this container; "Always"
	// on an init container makes it a sidecar.
	RestartPolicy      *ContainerRestartPolicy `json:"restartPolicy,omitempty" protobuf:"bytes,24,opt,name=restartPolicy,casttype=ContainerRestartPolicy"`
	RestartPolicyRules []ContainerRestartRule  `json:"restartPolicyRules,omitempty" protobuf:"bytes,25,rep,name=restartPolicyRules"`
	VolumeMounts       []VolumeMount           `json:"volumeMounts,omitempty" patchStrategy:"merge" patchMergeKey:"mountPath" protobuf:"bytes,9,rep,name=volumeMounts"`
	VolumeDevices      []VolumeDevice          `json:"volumeDevices,omitempty" patchStrategy:"merge" patchMergeKey:"devicePath" protobuf:"bytes,21,rep,name=volumeDevices"`
	LivenessProbe      *Probe                  `json:"livenessProbe,omitempty" protobuf:"bytes,10,opt,name=livenessProbe"`
	ReadinessProbe     *Probe                  `json:"readinessProbe,omitempty" protobuf:"bytes,11,opt,name=readinessProbe"`
	StartupProbe       *Probe                  `json:"startupProbe,omitempty" protobuf:"bytes,22,opt,name=startupProbe"`
	Lifecycle          *Lifecycle              `json:"lifecycle,omitempty" protobuf:"bytes,12,opt,name=lifecycle"`
	// TerminationMessagePath defaults to TerminationMessagePathDefault.
	TerminationMessagePath   string                   `json:"terminationMessagePath,omitempty" protobuf:"bytes,13,opt,name=terminationMessagePath"`
	TerminationMessagePolicy TerminationMessagePolicy `json:"terminationMessagePolicy,omitempty" protobuf:"bytes,20,opt,name=terminationMessagePolicy,casttype=TerminationMessagePolicy"`
	ImagePullPolicy          PullPolicy               `json:"imagePullPolicy,omitempty" protobuf:"bytes,14,opt,name=imagePullPolicy,casttype=PullPolicy"`
	SecurityContext          *SecurityContext         `json:"securityContext,omitempty" protobuf:"bytes,15,opt,name=securityContext"`
	// Stdin, StdinOnce and TTY are for interactive containers.
	Stdin     bool `json:"stdin,omitempty" protobuf:"varint,16,opt,name=stdin"`
	StdinOnce bool `json:"stdinOnce,omitempty" protobuf:"varint,17,opt,name=stdinOnce"`
	TTY       bool `json:"tty,omitempty" protobuf:"varint,18,opt,name=tty"`
}

// ContainerPort is a port a container listens on.
type ContainerPort struct {
	Name          string   `json:"name,omitempty" protobuf:"bytes,1,opt,name=name"`
	HostPort      int32    `json:"hostPort,omitempty" protobuf:"varint,2,opt,name=hostPort"`
	ContainerPort int32    `json:"containerPort" protobuf:"varint,3,opt,name=containerPort"`
	Protocol      Protocol `json:"protocol,omitempty" protobuf:"bytes,4,opt,name=protocol,casttype=Protocol"`
	HostIP        string   `json:"hostIP,omitempty" protobuf:"bytes,5,opt,name=hostIP"`
}

// EnvVar is one environment variable: a literal value or a reference.
type EnvVar struct {
	Name      string        `json:"name" protobuf:"bytes,1,opt,name=name"`
	Value     string        `json:"value,omitempty" protobuf:"bytes,2,opt,name=value"`
	ValueFrom *EnvVarSource `json:"valueFrom,omitempty" protobuf:"bytes,3,opt,name=valueFrom"`
}

// EnvVarSource computes an environment variable's value; exactly one member is set.
type EnvVarSource struct {
	FieldRef         *ObjectFieldSelector   `json:"fieldRef,omitempty" protobuf:"bytes,1,opt,name=fieldRef"`
	ResourceFieldRef *ResourceFieldSelector `json:"resourceFieldRef,omitempty" protobuf:"bytes,2,opt,name=resourceFieldRef"`
	ConfigMapKeyRef  *ConfigMapKeySelector  `json:"configMapKeyRef,omitempty" protobuf:"bytes,3,opt,name=configMapKeyRef"`
	SecretKeyRef     *SecretKeySelector     `json:"secretKeyRef,omitempty" protobuf:"bytes,4,opt,name=secretKeyRef"`
	FileKeyRef       *FileKeySelector       `json:"fileKeyRef,omitempty" protobuf:"bytes,5,opt,name=fileKeyRef"`
}

// ObjectFieldSelector picks a field of the pod, such as "metadata.name" or "status.podIP".
type ObjectFieldSelector struct {
	APIVersion string `json:"apiVersion,omitempty" protobuf:"bytes,1,opt,name=apiVersion"`
	FieldPath  string `json:"fieldPath" protobuf:"bytes,2,opt,name=fieldPath"`
}

// ResourceFieldSelector picks a container's request or limit, scaled by Divisor.
type ResourceFieldSelector struct {
	ContainerName string            `json:"containerName,omitempty" protobuf:"bytes,1,opt,name=containerName"`
	Resource      string            `json:"resource" protobuf:"bytes,2,opt,name=resource"`
	Divisor       resource.Quantity `json:"divisor,omitempty" protobuf:"bytes,3,opt,name=divisor"`
}

// ConfigMapKeySelector picks one key of a config map.
type ConfigMapKeySelector struct {
	LocalObjectReference `json:",inline" protobuf:"bytes,1,opt,name=localObjectReference"`
	Key                  string `json:"key" protobuf:"bytes,2,opt,name=key"`
	Optional             *bool  `json:"optional,omitempty" protobuf:"varint,3,opt,name=optional"`
}

// SecretKeySelector picks one key of a secret.
type SecretKeySelector struct {
	LocalObjectReference `json:",inline" protobuf:"bytes,1,opt,name=localObjectReference"`
	Key                  string `json:"key" protobuf:"bytes,2,opt,name=key"`
	Optional             *bool  `json:"optional,omitempty" protobuf:"varint,3,opt,name=optional"`
}

// FileKeySelector picks one key of an env file found on a volume.
type FileKeySelector struct {
	VolumeName string `json:"volumeName" protobuf:"bytes,1,opt,name=volumeName"`
	Path       string `json:"path" protobuf:"bytes,2,opt,name=path"`
	Key        string `json:"key" protobuf:"bytes,3,opt,name=key"`
	Optional   *bool  `json:"optional,omitempty" protobuf:"varint,4,opt,name=optional"`
}

// EnvFromSource imports every key of a config map or secret as variables.
type EnvFromSource struct {
	Prefix       string              `json:"prefix,omitempty" protobuf:"bytes,1,opt,name=prefix"`
	ConfigMapRef *ConfigMapEnvSource `json:"configMapRef,omitempty" protobuf:"bytes,2,opt,name=configMapRef"`
	SecretRef    *SecretEnvSource    `json:"secretRef,omitempty" protobuf:"bytes,3,opt,name=secretRef"`
}

// ConfigMapEnvSource names the config map an EnvFromSource reads.
type ConfigMapEnvSource struct {
	LocalObjectReference `json:",inline" protobuf:"bytes,1,opt,name=localObjectReference"`
	Optional             *bool `json:"optional,omitempty" protobuf:"varint,2,opt,name=optional"`
}

// SecretEnvSource names the secret an EnvFromSource reads.
type SecretEnvSource struct {
	LocalObjectReference `json:",inline" protobuf:"bytes,1,opt,name=localObjectReference"`
	Optional             *bool `json:"optional,omitempty" protobuf:"varint,2,opt,name=optional"`
}

// ResourceRequirements holds a container's (or pod's) limits and requests.
type ResourceRequirements struct {
	Limits   ResourceList `json:"limits,omitempty" protobuf:"bytes,1,rep,name=limits,casttype=ResourceList,castkey=ResourceName"`
	Requests ResourceList `json:"requests,omitempty" protobuf:"bytes,2,rep,name=requests,casttype=ResourceList,castkey=ResourceName"`
	// Claims names entries of the pod's resourceClaims this container uses.
	Claims []ResourceClaim `json:"claims,omitempty" protobuf:"bytes,3,opt,name=claims"`
}

// ResourceClaim refers to one entry of the pod's resourceClaims, optionally to one request in it.
type ResourceClaim struct {
	Name    string `json:"name" protobuf:"bytes,1,opt,name=name"`
	Request string `json:"request,omitempty" protobuf:"bytes,2,opt,name=request"`
}

// ResourceResizeRestartPolicy says whether resizing a resource restarts the container.
type ResourceResizeRestartPolicy string

// The values of ResourceResizeRestartPolicy.
const (
	NotRequired      ResourceResizeRestartPolicy = "NotRequired"
	RestartContainer ResourceResizeRestartPolicy = "RestartContainer"
)

// ContainerResizePolicy is the in-place resize behaviour for one resource.
type ContainerResizePolicy struct {
	ResourceName  ResourceName                `json:"resourceName" protobuf:"bytes,1,opt,name=resourceName,casttype=ResourceName"`
	RestartPolicy ResourceResizeRestartPolicy `json:"restartPolicy" protobuf:"bytes,2,opt,name=restartPolicy,casttype=ResourceResizeRestartPolicy"`
}

// ContainerRestartPolicy is the restart policy of a single container.
type ContainerRestartPolicy string

// The values of ContainerRestartPolicy.
const (
	ContainerRestartPolicyAlways    ContainerRestartPolicy = "Always"
	ContainerRestartPolicyNever     ContainerRestartPolicy = "Never"
	ContainerRestartPolicyOnFailure ContainerRestartPolicy = "OnFailure"
)

// ContainerRestartRule decides what to do when a container exits in a way the rule matches.
type ContainerRestartRule struct {
	Action    ContainerRestartRuleAction       `json:"action,omitempty" protobuf:"bytes,1,opt,name=action,casttype=ContainerRestartRuleAction"`
	ExitCodes *ContainerRestartRuleOnExitCodes `json:"exitCodes,omitempty" protobuf:"bytes,2,opt,name=exitCodes"`
}

// ContainerRestartRuleAction is what a matching ContainerRestartRule does.
type ContainerRestartRuleAction string

// The values of ContainerRestartRuleAction.
const (
	ContainerRestartRuleActionRestart              ContainerRestartRuleAction = "Restart"
	ContainerRestartRuleActionRestartAllContainers ContainerRestartRuleAction = "RestartAllContainers"
)

// ContainerRestartRuleOnExitCodes matches container exits by exit code.
type ContainerRestartRuleOnExitCodes struct {
	Operator ContainerRestartRuleOnExitCodesOperator `json:"operator,omitempty" protobuf:"bytes,1,opt,name=operator,casttype=ContainerRestartRuleOnExitCodesOperator"`
	Values   []int32                                 `json:"values,omitempty" protobuf:"varint,2,rep,name=values"`
}

// ContainerRestartRuleOnExitCodesOperator relates an exit code to the rule's values.
type ContainerRestartRuleOnExitCodesOperator string

// The values of ContainerRestartRuleOnExitCodesOperator.
const (
	ContainerRestartRuleOnExitCodesOpIn    ContainerRestartRuleOnExitCodesOperator = "In"
	ContainerRestartRuleOnExitCodesOpNotIn ContainerRestartRuleOnExitCodesOperator = "NotIn"
)

// PullPolicy says when the node pulls a container image.
type PullPolicy string

// The values of PullPolicy.
const (
	PullAlways       PullPolicy = "Always"
	PullNever        PullPolicy = "Never"
	PullIfNotPresent PullPolicy = "IfNotPresent"
)

// TerminationMessagePolicy says where a container's termination message comes from.
type TerminationMessagePolicy string

// The values of TerminationMessagePolicy.
const (
	// TerminationMessageReadFile reads the file at terminationMessagePath (the default).
	TerminationMessageReadFile TerminationMessagePolicy = "File"
	// TerminationMessageFallbackToLogsOnError uses the log tail when the file is empty and the container failed.
	TerminationMessageFallbackToLogsOnError TerminationMessagePolicy = "FallbackToLogsOnError"
)
