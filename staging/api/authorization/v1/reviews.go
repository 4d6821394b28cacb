package v1

import "platform.io/client/api/meta"

// LocalSubjectAccessReview is a SubjectAccessReview scoped to one
// namespace: it is posted to that namespace, and its resource attributes
// must name the same namespace.
type LocalSubjectAccessReview struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Spec            SubjectAccessReviewSpec   `json:"spec" protobuf:"bytes,2,opt,name=spec"`
	Status          SubjectAccessReviewStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// SelfSubjectAccessReview asks whether the requesting user may perform an
// action (kubectl auth can-i).
type SelfSubjectAccessReview struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Spec            SelfSubjectAccessReviewSpec `json:"spec" protobuf:"bytes,2,opt,name=spec"`
	Status          SubjectAccessReviewStatus   `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// SelfSubjectAccessReviewSpec is the action; exactly one of the attribute
// kinds is set.
type SelfSubjectAccessReviewSpec struct {
	ResourceAttributes    *ResourceAttributes    `json:"resourceAttributes,omitempty" protobuf:"bytes,1,opt,name=resourceAttributes"`
	NonResourceAttributes *NonResourceAttributes `json:"nonResourceAttributes,omitempty" protobuf:"bytes,2,opt,name=nonResourceAttributes"`
}

// SelfSubjectRulesReview lists what the requesting user may do in a
// namespace (kubectl auth can-i --list).
type SelfSubjectRulesReview struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Spec            SelfSubjectRulesReviewSpec `json:"spec" protobuf:"bytes,2,opt,name=spec"`
	Status          SubjectRulesReviewStatus   `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// SelfSubjectRulesReviewSpec names the namespace to list rules in.
type SelfSubjectRulesReviewSpec struct {
	Namespace string `json:"namespace,omitempty" protobuf:"bytes,1,opt,name=namespace"`
}

// SubjectRulesReviewStatus is the list of rules. Incomplete is true when
// some authorizer could not list its rules; the list is then a subset of
// what is allowed.
type SubjectRulesReviewStatus struct {
	ResourceRules    []ResourceRule    `json:"resourceRules" protobuf:"bytes,1,rep,name=resourceRules"`
	NonResourceRules []NonResourceRule `json:"nonResourceRules" protobuf:"bytes,2,rep,name=nonResourceRules"`
	Incomplete       bool              `json:"incomplete" protobuf:"varint,3,opt,name=incomplete"`
	EvaluationError  string            `json:"evaluationError,omitempty" protobuf:"bytes,4,opt,name=evaluationError"`
}

// ResourceRule is a permission on resources; "*" means all.
type ResourceRule struct {
	Verbs         []string `json:"verbs" protobuf:"bytes,1,rep,name=verbs"`
	APIGroups     []string `json:"apiGroups,omitempty" protobuf:"bytes,2,rep,name=apiGroups"`
	Resources     []string `json:"resources,omitempty" protobuf:"bytes,3,rep,name=resources"`
	ResourceNames []string `json:"resourceNames,omitempty" protobuf:"bytes,4,rep,name=resourceNames"`
}

// NonResourceRule is a permission on non-resource paths.
type NonResourceRule struct {
	Verbs           []string `json:"verbs" protobuf:"bytes,1,rep,name=verbs"`
	NonResourceURLs []string `json:"nonResourceURLs,omitempty" protobuf:"bytes,2,rep,name=nonResourceURLs"`
}
