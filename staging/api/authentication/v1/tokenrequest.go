package v1

import "platform.io/client/api/meta"

// TokenRequest asks for a token of a service account; it is the body of a
// POST to serviceaccounts/<name>/token and comes back with status set.
type TokenRequest struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Spec            TokenRequestSpec   `json:"spec" protobuf:"bytes,2,opt,name=spec"`
	Status          TokenRequestStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// TokenRequestSpec is what the token is for.
type TokenRequestSpec struct {
	// Audiences the token is meant for; empty means the API server's own.
	Audiences []string `json:"audiences" protobuf:"bytes,1,rep,name=audiences"`
	// ExpirationSeconds is the requested lifetime (default 3600, at least
	// 600); the server may shorten it.
	ExpirationSeconds *int64 `json:"expirationSeconds" protobuf:"varint,4,opt,name=expirationSeconds"`
	// BoundObjectRef ties the token's validity to a pod or secret.
	BoundObjectRef *BoundObjectReference `json:"boundObjectRef" protobuf:"bytes,3,opt,name=boundObjectRef"`
}

// TokenRequestStatus carries the issued token.
type TokenRequestStatus struct {
	// Token is the signed token, a secret.
	Token string `json:"token" protobuf:"bytes,1,opt,name=token"`
	// ExpirationTimestamp is when the token stops being accepted.
	ExpirationTimestamp meta.Time `json:"expirationTimestamp" protobuf:"bytes,2,opt,name=expirationTimestamp"`
}

// BoundObjectReference names the object a token is bound to: a Pod or a
// Secret in the service account's namespace.
type BoundObjectReference struct {
	// Kind is Pod or Secret.
	Kind string `json:"kind,omitempty" protobuf:"bytes,1,opt,name=kind"`
	// APIVersion is v1.
	APIVersion string `json:"apiVersion,omitempty" protobuf:"bytes,2,opt,name=aPIVersion"`
	// Name is the object's name.
	Name string `json:"name,omitempty" protobuf:"bytes,3,opt,name=name"`
	// UID, when set, must be the object's uid (else 409).
	UID meta.UID `json:"uid,omitempty" protobuf:"bytes,4,opt,name=uID"`
}
