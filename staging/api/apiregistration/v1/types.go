package v1

import "platform.io/client/api/meta"

// APIService registers the server of one group version. Its name is
// "<version>.<group>".
type APIService struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Spec            APIServiceSpec   `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	Status          APIServiceStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// APIServiceSpec says where a group version is served and how it ranks in
// discovery.
type APIServiceSpec struct {
	// Service is the Service in front of the aggregated server. Nil means
	// the group version is served by the API server itself.
	Service *ServiceReference `json:"service,omitempty" protobuf:"bytes,1,opt,name=service"`
	// Group is the API group name this server hosts.
	Group string `json:"group,omitempty" protobuf:"bytes,2,opt,name=group"`
	// Version is the API version this server hosts, such as "v1".
	Version string `json:"version,omitempty" protobuf:"bytes,3,opt,name=version"`
	// InsecureSkipTLSVerify disables checking the aggregated server's
	// serving certificate. It is strongly discouraged; use CABundle.
	InsecureSkipTLSVerify bool `json:"insecureSkipTLSVerify,omitempty" protobuf:"varint,4,opt,name=insecureSkipTLSVerify"`
	// CABundle is a PEM bundle of the authorities that sign the aggregated
	// server's serving certificate; empty means the system roots.
	CABundle []byte `json:"caBundle,omitempty" protobuf:"bytes,5,opt,name=caBundle"`
	// GroupPriorityMinimum is the priority this group should have at
	// least: groups are listed in discovery by the highest minimum among
	// their versions, highest first, then by name.
	GroupPriorityMinimum int32 `json:"groupPriorityMinimum" protobuf:"varint,7,opt,name=groupPriorityMinimum"`
	// VersionPriority orders the versions of a group in discovery, highest
	// first (the first is the preferred version); equal priorities are
	// ordered by version name, the platform's way (v1 > v1beta1 > v1alpha1).
	VersionPriority int32 `json:"versionPriority" protobuf:"varint,8,opt,name=versionPriority"`
}

// ServiceReference names a Service and the port of it to reach.
type ServiceReference struct {
	Namespace string `json:"namespace,omitempty" protobuf:"bytes,1,opt,name=namespace"`
	Name      string `json:"name,omitempty" protobuf:"bytes,2,opt,name=name"`
	// Port is the Service port to use; nil is 443.
	Port *int32 `json:"port,omitempty" protobuf:"varint,3,opt,name=port"`
}

// DefaultPort is the Service port of a ServiceReference without one.
const DefaultPort int32 = 443

// ConditionStatus is True, False or Unknown.
type ConditionStatus string

// The values of ConditionStatus.
const (
	ConditionTrue    ConditionStatus = "True"
	ConditionFalse   ConditionStatus = "False"
	ConditionUnknown ConditionStatus = "Unknown"
)

// APIServiceConditionType names a condition of an APIService.
type APIServiceConditionType string

// Available says whether the group version can be served: its server
// answered the last discovery check (or it is served locally).
const Available APIServiceConditionType = "Available"

// APIServiceCondition is one observation of an APIService's state.
type APIServiceCondition struct {
	Type   APIServiceConditionType `json:"type" protobuf:"bytes,1,opt,name=type"`
	Status ConditionStatus         `json:"status" protobuf:"bytes,2,opt,name=status"`
	// LastTransitionTime is when Status last changed.
	LastTransitionTime meta.Time `json:"lastTransitionTime,omitempty" protobuf:"bytes,3,opt,name=lastTransitionTime"`
	// Reason is a CamelCase word saying why (Passed, Local,
	// ServiceNotFound, MissingEndpoints, FailedDiscoveryCheck, ...).
	Reason  string `json:"reason,omitempty" protobuf:"bytes,4,opt,name=reason"`
	Message string `json:"message,omitempty" protobuf:"bytes,5,opt,name=message"`
}

// APIServiceStatus is the observed state of an APIService.
type APIServiceStatus struct {
	Conditions []APIServiceCondition `json:"conditions,omitempty" protobuf:"bytes,1,rep,name=conditions"`
}

// APIServiceList is a page of APIServices.
type APIServiceList struct {
	meta.TypeMeta `json:",inline"`
	meta.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items         []APIService `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// Condition returns the condition of type t, or nil.
func (s *APIService) Condition(t APIServiceConditionType) *APIServiceCondition {
	for i := range s.Status.Conditions {
		if s.Status.Conditions[i].Type == t {
			return &s.Status.Conditions[i]
		}
	}
	return nil
}

// IsAvailable reports whether the Available condition is True.
func (s *APIService) IsAvailable() bool {
	c := s.Condition(Available)
	return c != nil && c.Status == ConditionTrue
}

// NameFor returns the name an APIService of group and version must have.
func NameFor(group, version string) string { return version + "." + group }
