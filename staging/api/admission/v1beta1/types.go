package v1beta1

import (
	v1 "platform.io/client/api/admission/v1"
	"platform.io/client/api/meta"
)

// AdmissionReview carries a request to a webhook and its response back.
type AdmissionReview struct {
	meta.TypeMeta `json:",inline"`
	// Request is set by the API server.
	Request *v1.AdmissionRequest `json:"request,omitempty" protobuf:"bytes,1,opt,name=request"`
	// Response is set by the webhook.
	Response *v1.AdmissionResponse `json:"response,omitempty" protobuf:"bytes,2,opt,name=response"`
}
