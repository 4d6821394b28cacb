package v1

import "platform.io/client/api/meta"

// ResourceQuota caps the aggregate resources (object counts and compute)
// of its namespace. The ResourceQuota admission plugin refuses writes that
// would go over it; the quota controller keeps status.used right.
type ResourceQuota struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec is the desired quota.
	Spec ResourceQuotaSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	// Status is the enforced quota and the current usage.
	Status ResourceQuotaStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// ResourceQuotaList is a list of resource quotas.
type ResourceQuotaList struct {
	meta.TypeMeta `json:",inline"`
	meta.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	Items []ResourceQuota `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// ResourceQuotaSpec is the desired hard limit of each named resource.
type ResourceQuotaSpec struct {
	// Hard is the most of each named resource the namespace may use.
	Hard ResourceList `json:"hard,omitempty" protobuf:"bytes,1,rep,name=hard,casttype=ResourceList,castkey=ResourceName"`
	// Scopes restrict the quota to the objects that match every scope;
	// none means all objects.
	Scopes []ResourceQuotaScope `json:"scopes,omitempty" protobuf:"bytes,2,rep,name=scopes,casttype=ResourceQuotaScope"`
	// ScopeSelector is scopes written as expressions; an object must
	// match every expression, as well as every entry of Scopes.
	ScopeSelector *ScopeSelector `json:"scopeSelector,omitempty" protobuf:"bytes,3,opt,name=scopeSelector"`
}

// ResourceQuotaScope names a set of objects a quota may be restricted to.
type ResourceQuotaScope string

// The values of ResourceQuotaScope.
const (
	// ResourceQuotaScopeTerminating matches pods with activeDeadlineSeconds set.
	ResourceQuotaScopeTerminating ResourceQuotaScope = "Terminating"
	// ResourceQuotaScopeNotTerminating matches pods without activeDeadlineSeconds.
	ResourceQuotaScopeNotTerminating ResourceQuotaScope = "NotTerminating"
	// ResourceQuotaScopeBestEffort matches pods with no requests and no limits.
	ResourceQuotaScopeBestEffort ResourceQuotaScope = "BestEffort"
	// ResourceQuotaScopeNotBestEffort matches pods with some request or limit.
	ResourceQuotaScopeNotBestEffort ResourceQuotaScope = "NotBestEffort"
	// ResourceQuotaScopePriorityClass matches pods by priorityClassName
	// (with the values of a scope selector expression).
	ResourceQuotaScopePriorityClass ResourceQuotaScope = "PriorityClass"
	// ResourceQuotaScopeCrossNamespacePodAffinity matches pods whose
	// affinity terms reach into other namespaces.
	ResourceQuotaScopeCrossNamespacePodAffinity ResourceQuotaScope = "CrossNamespacePodAffinity"
)

// ScopeSelector selects scopes by expressions, all of which must match.
type ScopeSelector struct {
	// MatchExpressions are the scope requirements, ANDed.
	MatchExpressions []ScopedResourceSelectorRequirement `json:"matchExpressions,omitempty" protobuf:"bytes,1,rep,name=matchExpressions"`
}

// ScopedResourceSelectorRequirement relates a scope to a set of values.
type ScopedResourceSelectorRequirement struct {
	// ScopeName is the scope the requirement applies to.
	ScopeName ResourceQuotaScope `json:"scopeName" protobuf:"bytes,1,opt,name=scopeName,casttype=ResourceQuotaScope"`
	// Operator relates the scope to Values: In, NotIn, Exists or DoesNotExist.
	Operator ScopeSelectorOperator `json:"operator" protobuf:"bytes,2,opt,name=operator,casttype=ScopeSelectorOperator"`
	// Values must be non-empty for In and NotIn, and empty for Exists
	// and DoesNotExist.
	Values []string `json:"values,omitempty" protobuf:"bytes,3,rep,name=values"`
}

// ScopeSelectorOperator relates a scope to a set of values.
type ScopeSelectorOperator string

// The values of ScopeSelectorOperator.
const (
	ScopeSelectorOpIn           ScopeSelectorOperator = "In"
	ScopeSelectorOpNotIn        ScopeSelectorOperator = "NotIn"
	ScopeSelectorOpExists       ScopeSelectorOperator = "Exists"
	ScopeSelectorOpDoesNotExist ScopeSelectorOperator = "DoesNotExist"
)

// ResourceQuotaStatus is the enforced hard limits and the observed usage.
type ResourceQuotaStatus struct {
	// Hard is the enforced hard limit of each named resource.
	Hard ResourceList `json:"hard,omitempty" protobuf:"bytes,1,rep,name=hard,casttype=ResourceList,castkey=ResourceName"`
	// Used is the current usage of each named resource in the namespace.
	Used ResourceList `json:"used,omitempty" protobuf:"bytes,2,rep,name=used,casttype=ResourceList,castkey=ResourceName"`
}
