package v1beta1

import "platform.io/client/api/meta"

// TokenReview asks whether a token authenticates, and as whom.
type TokenReview struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Spec            TokenReviewSpec   `json:"spec" protobuf:"bytes,2,opt,name=spec"`
	Status          TokenReviewStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// TokenReviewSpec is the token to check.
type TokenReviewSpec struct {
	Token     string   `json:"token,omitempty" protobuf:"bytes,1,opt,name=token"`
	Audiences []string `json:"audiences,omitempty" protobuf:"bytes,2,rep,name=audiences"`
}

// TokenReviewStatus is the answer.
type TokenReviewStatus struct {
	Authenticated bool     `json:"authenticated,omitempty" protobuf:"varint,1,opt,name=authenticated"`
	User          UserInfo `json:"user,omitempty" protobuf:"bytes,2,opt,name=user"`
	Audiences     []string `json:"audiences,omitempty" protobuf:"bytes,4,rep,name=audiences"`
	Error         string   `json:"error,omitempty" protobuf:"bytes,3,opt,name=error"`
}

// UserInfo describes an authenticated user.
type UserInfo struct {
	Username string                `json:"username,omitempty" protobuf:"bytes,1,opt,name=username"`
	UID      string                `json:"uid,omitempty" protobuf:"bytes,2,opt,name=uid"`
	Groups   []string              `json:"groups,omitempty" protobuf:"bytes,3,rep,name=groups"`
	Extra    map[string]ExtraValue `json:"extra,omitempty" protobuf:"bytes,4,rep,name=extra"`
}

// ExtraValue holds the values of one extra attribute of a user.
type ExtraValue []string

// SelfSubjectReview asks the API server who the requesting user is.
type SelfSubjectReview struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Status          SelfSubjectReviewStatus `json:"status,omitempty" protobuf:"bytes,2,opt,name=status"`
}

// SelfSubjectReviewStatus is the answer.
type SelfSubjectReviewStatus struct {
	UserInfo UserInfo `json:"userInfo,omitempty" protobuf:"bytes,1,opt,name=userInfo"`
}
