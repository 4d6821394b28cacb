package v1beta1

import "platform.io/client/api/meta"

// SubjectAccessReview asks whether a user may perform an action.
type SubjectAccessReview struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Spec            SubjectAccessReviewSpec   `json:"spec" protobuf:"bytes,2,opt,name=spec"`
	Status          SubjectAccessReviewStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// SubjectAccessReviewSpec names the user and the action; exactly one of
// the attribute kinds is set. Groups is "group" on the wire in this version.
type SubjectAccessReviewSpec struct {
	ResourceAttributes    *ResourceAttributes    `json:"resourceAttributes,omitempty" protobuf:"bytes,1,opt,name=resourceAttributes"`
	NonResourceAttributes *NonResourceAttributes `json:"nonResourceAttributes,omitempty" protobuf:"bytes,2,opt,name=nonResourceAttributes"`
	User                  string                 `json:"user,omitempty" protobuf:"bytes,3,opt,name=user"`
	Groups                []string               `json:"group,omitempty" protobuf:"bytes,4,rep,name=group"`
	Extra                 map[string]ExtraValue  `json:"extra,omitempty" protobuf:"bytes,5,rep,name=extra"`
	UID                   string                 `json:"uid,omitempty" protobuf:"bytes,6,opt,name=uid"`
}

// ResourceAttributes describe an action on a resource.
type ResourceAttributes struct {
	Namespace   string `json:"namespace,omitempty" protobuf:"bytes,1,opt,name=namespace"`
	Verb        string `json:"verb,omitempty" protobuf:"bytes,2,opt,name=verb"`
	Group       string `json:"group,omitempty" protobuf:"bytes,3,opt,name=group"`
	Version     string `json:"version,omitempty" protobuf:"bytes,4,opt,name=version"`
	Resource    string `json:"resource,omitempty" protobuf:"bytes,5,opt,name=resource"`
	Subresource string `json:"subresource,omitempty" protobuf:"bytes,6,opt,name=subresource"`
	Name        string `json:"name,omitempty" protobuf:"bytes,7,opt,name=name"`
}

// NonResourceAttributes describe an action on a path that is no resource.
type NonResourceAttributes struct {
	Path string `json:"path,omitempty" protobuf:"bytes,1,opt,name=path"`
	Verb string `json:"verb,omitempty" protobuf:"bytes,2,opt,name=verb"`
}

// SubjectAccessReviewStatus is the answer.
type SubjectAccessReviewStatus struct {
	Allowed         bool   `json:"allowed" protobuf:"varint,1,opt,name=allowed"`
	Denied          bool   `json:"denied,omitempty" protobuf:"varint,4,opt,name=denied"`
	Reason          string `json:"reason,omitempty" protobuf:"bytes,2,opt,name=reason"`
	EvaluationError string `json:"evaluationError,omitempty" protobuf:"bytes,3,opt,name=evaluationError"`
}

// ExtraValue holds the values of one extra attribute of a user.
type ExtraValue []string
