package v1

import "platform.io/client/api/meta"

// GroupName is the API group of the kinds in this package.
const GroupName = "apps"

// SchemeGroupVersion is the group and version served by this package.
var SchemeGroupVersion = meta.GroupVersion{Group: GroupName, Version: "v1"}

// Kind qualifies a kind name with this package's group and version.
func Kind(kind string) meta.GroupVersionKind {
	return meta.GroupVersionKind{Group: GroupName, Version: SchemeGroupVersion.Version, Kind: kind}
}

// Resource qualifies a resource name with this package's group.
func Resource(resource string) meta.GroupResource {
	return meta.GroupResource{Group: GroupName, Resource: resource}
}

// Label and annotation keys written by the workload controllers.
const (
	// ControllerRevisionHashLabelKey labels pods (and ControllerRevisions)
	// with the hash of the revision they were created from.
	ControllerRevisionHashLabelKey = "controller-revision-hash"
	// StatefulSetRevisionLabel is the revision label StatefulSet pods carry.
	StatefulSetRevisionLabel = ControllerRevisionHashLabelKey
	// DeprecatedRollbackTo is the annotation older clients used to ask for a
	// Deployment rollback.
	DeprecatedRollbackTo = "deprecated.deployment.rollback.to"
	// DeprecatedTemplateGeneration is the annotation that recorded the
	// DaemonSet template generation before ControllerRevisions existed.
	DeprecatedTemplateGeneration = "deprecated.daemonset.template.generation"
	// StatefulSetPodNameLabel carries a StatefulSet pod's own name, so a
	// Service can select a single member.
	StatefulSetPodNameLabel = "statefulset.platform.io/pod-name"
	// PodIndexLabel carries a StatefulSet pod's ordinal.
	PodIndexLabel = "apps.platform.io/pod-index"
	// DefaultDeploymentUniqueLabelKey is added to a Deployment's ReplicaSets,
	// their selectors and their pods so that ReplicaSets of different
	// revisions never select each other's pods.
	DefaultDeploymentUniqueLabelKey = "pod-template-hash"
	// DefaultDaemonSetUniqueLabelKey tells old DaemonSet pods from new ones
	// while a template update rolls out.
	DefaultDaemonSetUniqueLabelKey = ControllerRevisionHashLabelKey
)
