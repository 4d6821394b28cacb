package v1

// Rule names the resources a webhook applies to. "*" in a list matches
// everything; a resource may name a subresource ("pods/status"), all of a
// resource's subresources ("pods/*"), one subresource of every resource
// ("*/scale") or everything ("*/*").
type Rule struct {
	// APIGroups are the groups; "" is the core group.
	APIGroups []string `json:"apiGroups,omitempty" protobuf:"bytes,1,rep,name=apiGroups"`
	// APIVersions are the versions.
	APIVersions []string `json:"apiVersions,omitempty" protobuf:"bytes,2,rep,name=apiVersions"`
	// Resources are the resources and subresources.
	Resources []string `json:"resources,omitempty" protobuf:"bytes,3,rep,name=resources"`
	// Scope limits the rule to cluster-scoped or namespaced resources;
	// nil is "*", both.
	Scope *ScopeType `json:"scope,omitempty" protobuf:"bytes,4,opt,name=scope,casttype=ScopeType"`
}

// ScopeType is the scope a Rule applies to.
type ScopeType string

// The scopes.
const (
	ClusterScope    ScopeType = "Cluster"
	NamespacedScope ScopeType = "Namespaced"
	AllScopes       ScopeType = "*"
)

// OperationType is a write a rule matches.
type OperationType string

// The operations.
const (
	OperationAll OperationType = "*"
	Create       OperationType = "CREATE"
	Update       OperationType = "UPDATE"
	Delete       OperationType = "DELETE"
	Connect      OperationType = "CONNECT"
)

// RuleWithOperations is a Rule and the operations it applies to.
type RuleWithOperations struct {
	// Operations are the writes matched; "*" matches every one.
	Operations []OperationType `json:"operations,omitempty" protobuf:"bytes,1,rep,name=operations,casttype=OperationType"`
	Rule       `json:",inline" protobuf:"bytes,2,opt,name=rule"`
}
