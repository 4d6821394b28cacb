package v1

import (
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

// PriorityClass maps a name to an integer priority. Pods name it in
// spec.priorityClassName; the higher the value, the more important the
// pod, and the scheduler may evict lower-priority pods to place it.
type PriorityClass struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// Value is the priority that pods of this class receive. User classes
	// may use at most 1000000000; larger values are reserved for the
	// built-in system classes. It cannot change after creation.
	Value int32 `json:"value" protobuf:"bytes,2,opt,name=value"`
	// GlobalDefault makes this class's value the priority of pods that
	// name no class. At most one class may be the global default.
	GlobalDefault bool `json:"globalDefault,omitempty" protobuf:"bytes,3,opt,name=globalDefault"`
	// Description is free text telling users when to use this class.
	Description string `json:"description,omitempty" protobuf:"bytes,4,opt,name=description"`
	// PreemptionPolicy is the preemption policy of pods of this class:
	// PreemptLowerPriority (the default) or Never. It cannot change after
	// creation.
	PreemptionPolicy *corev1.PreemptionPolicy `json:"preemptionPolicy,omitempty" protobuf:"bytes,5,opt,name=preemptionPolicy"`
}

// PriorityClassList is a page of PriorityClasses.
type PriorityClassList struct {
	meta.TypeMeta `json:",inline"`
	meta.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items         []PriorityClass `json:"items" protobuf:"bytes,2,rep,name=items"`
}
