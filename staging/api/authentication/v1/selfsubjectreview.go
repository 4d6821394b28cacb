package v1

import "platform.io/client/api/meta"

// SelfSubjectReview asks the API server who the requesting user is
// (kubectl auth whoami). It is never stored.
type SelfSubjectReview struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Status          SelfSubjectReviewStatus `json:"status,omitempty" protobuf:"bytes,2,opt,name=status"`
}

// SelfSubjectReviewStatus is the answer: the user as the server
// authenticated it.
type SelfSubjectReviewStatus struct {
	UserInfo UserInfo `json:"userInfo,omitempty" protobuf:"bytes,1,opt,name=userInfo"`
}
