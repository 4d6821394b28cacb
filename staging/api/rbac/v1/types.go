package v1

import "platform.io/client/api/meta"

// Wildcards and well-known values of rules and subjects.
const (
	// VerbAll, APIGroupAll, ResourceAll and NonResourceAll match anything in
	// their field of a PolicyRule.
	VerbAll        = "*"
	APIGroupAll    = "*"
	ResourceAll    = "*"
	NonResourceAll = "*"

	// The kinds a Subject may have.
	UserKind           = "User"
	GroupKind          = "Group"
	ServiceAccountKind = "ServiceAccount"

	// AutoUpdateAnnotationKey set to "false" on a bootstrap role or binding
	// keeps the API server from reconciling it at start.
	AutoUpdateAnnotationKey = "rbac.authorization.platform.io/autoupdate"
)

// PolicyRule is one permission: the verbs allowed on the listed resources
// of the listed API groups (optionally only the named objects), or on the
// listed non-resource URLs. A rule holds resources or URLs, never both
// kinds in a namespaced Role.
type PolicyRule struct {
	// Verbs are the actions allowed ("get", "list", ..., or "*").
	Verbs []string `json:"verbs" protobuf:"bytes,1,rep,name=verbs"`
	// APIGroups are the groups of the resources ("" is the core group, "*" all).
	APIGroups []string `json:"apiGroups,omitempty" protobuf:"bytes,2,rep,name=apiGroups"`
	// Resources are resource names, "resource/subresource", "*/subresource"
	// or "*".
	Resources []string `json:"resources,omitempty" protobuf:"bytes,3,rep,name=resources"`
	// ResourceNames, when set, limit the rule to the objects of these names.
	ResourceNames []string `json:"resourceNames,omitempty" protobuf:"bytes,4,rep,name=resourceNames"`
	// NonResourceURLs are paths such as "/healthz" or prefixes ending in "*";
	// only ClusterRoles bound by ClusterRoleBindings grant them.
	NonResourceURLs []string `json:"nonResourceURLs,omitempty" protobuf:"bytes,5,rep,name=nonResourceURLs"`
}

// Subject is who a binding grants its role to: a user, a group or a
// service account.
type Subject struct {
	// Kind is "User", "Group" or "ServiceAccount".
	Kind string `json:"kind" protobuf:"bytes,1,opt,name=kind"`
	// APIGroup is "rbac.authorization.platform.io" for users and groups
	// and "" for service accounts.
	APIGroup string `json:"apiGroup,omitempty" protobuf:"bytes,2,opt,name=apiGroup"`
	// Name names the subject.
	Name string `json:"name" protobuf:"bytes,3,opt,name=name"`
	// Namespace is the namespace of a service account.
	Namespace string `json:"namespace,omitempty" protobuf:"bytes,4,opt,name=namespace"`
}

// RoleRef names the role a binding grants; it cannot change once set.
type RoleRef struct {
	// APIGroup is "rbac.authorization.platform.io".
	APIGroup string `json:"apiGroup" protobuf:"bytes,1,opt,name=apiGroup"`
	// Kind is "Role" or "ClusterRole".
	Kind string `json:"kind" protobuf:"bytes,2,opt,name=kind"`
	// Name is the role's name.
	Name string `json:"name" protobuf:"bytes,3,opt,name=name"`
}

// Role is a namespaced set of rules, granted by RoleBindings in its
// namespace.
type Role struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// Rules are the role's permissions.
	Rules []PolicyRule `json:"rules" protobuf:"bytes,2,rep,name=rules"`
}

// RoleList is a page of Roles.
type RoleList struct {
	meta.TypeMeta `json:",inline"`
	meta.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items         []Role `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// RoleBinding grants a Role, or a ClusterRole's rules within its own
// namespace, to subjects.
type RoleBinding struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// Subjects are who the role is granted to.
	Subjects []Subject `json:"subjects,omitempty" protobuf:"bytes,2,rep,name=subjects"`
	// RoleRef is the Role in this namespace, or a ClusterRole, granted.
	RoleRef RoleRef `json:"roleRef" protobuf:"bytes,3,opt,name=roleRef"`
}

// RoleBindingList is a page of RoleBindings.
type RoleBindingList struct {
	meta.TypeMeta `json:",inline"`
	meta.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items         []RoleBinding `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// AggregationRule makes a ClusterRole's rules the union of the rules of
// the ClusterRoles its selectors match; the controller manager writes them.
type AggregationRule struct {
	// ClusterRoleSelectors select the ClusterRoles aggregated (any matching).
	ClusterRoleSelectors []meta.LabelSelector `json:"clusterRoleSelectors,omitempty" protobuf:"bytes,1,rep,name=clusterRoleSelectors"`
}

// ClusterRole is a cluster-wide set of rules, granted everywhere by
// ClusterRoleBindings or in one namespace by RoleBindings.
type ClusterRole struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// Rules are the role's permissions; with an AggregationRule they are
	// managed by the controller manager and overwritten.
	Rules []PolicyRule `json:"rules" protobuf:"bytes,2,rep,name=rules"`
	// AggregationRule, when set, aggregates the rules of other ClusterRoles.
	AggregationRule *AggregationRule `json:"aggregationRule,omitempty" protobuf:"bytes,3,opt,name=aggregationRule"`
}

// ClusterRoleList is a page of ClusterRoles.
type ClusterRoleList struct {
	meta.TypeMeta `json:",inline"`
	meta.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items         []ClusterRole `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// ClusterRoleBinding grants a ClusterRole cluster-wide to subjects.
type ClusterRoleBinding struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// Subjects are who the role is granted to.
	Subjects []Subject `json:"subjects,omitempty" protobuf:"bytes,2,rep,name=subjects"`
	// RoleRef is the ClusterRole granted.
	RoleRef RoleRef `json:"roleRef" protobuf:"bytes,3,opt,name=roleRef"`
}

// ClusterRoleBindingList is a page of ClusterRoleBindings.
type ClusterRoleBindingList struct {
	meta.TypeMeta `json:",inline"`
	meta.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items         []ClusterRoleBinding `json:"items" protobuf:"bytes,2,rep,name=items"`
}
