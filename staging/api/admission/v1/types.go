package v1

import (
	"encoding/json"

	authnv1 "platform.io/client/api/authentication/v1"
	"platform.io/client/api/meta"
)

// AdmissionReview carries a request to a webhook and its response back.
type AdmissionReview struct {
	meta.TypeMeta `json:",inline"`
	// Request is set by the API server.
	Request *AdmissionRequest `json:"request,omitempty" protobuf:"bytes,1,opt,name=request"`
	// Response is set by the webhook.
	Response *AdmissionResponse `json:"response,omitempty" protobuf:"bytes,2,opt,name=response"`
}

// GroupVersionKind names a kind in the wire form of AdmissionRequest.
type GroupVersionKind struct {
	Group   string `json:"group" protobuf:"bytes,1,opt,name=group"`
	Version string `json:"version" protobuf:"bytes,2,opt,name=version"`
	Kind    string `json:"kind" protobuf:"bytes,3,opt,name=kind"`
}

// GroupVersionResource names a resource in the wire form of AdmissionRequest.
type GroupVersionResource struct {
	Group    string `json:"group" protobuf:"bytes,1,opt,name=group"`
	Version  string `json:"version" protobuf:"bytes,2,opt,name=version"`
	Resource string `json:"resource" protobuf:"bytes,3,opt,name=resource"`
}

// Operation is the write being admitted.
type Operation string

// The operations.
const (
	Create  Operation = "CREATE"
	Update  Operation = "UPDATE"
	Delete  Operation = "DELETE"
	Connect Operation = "CONNECT"
)

// AdmissionRequest describes one write.
type AdmissionRequest struct {
	// UID identifies this call; the response must carry it back.
	UID meta.UID `json:"uid" protobuf:"bytes,1,opt,name=uid,casttype=platform.io/client/api/meta.UID"`
	// Kind is the kind of Object, in the version the webhook's rule matched
	// (converted from the request's when they differ).
	Kind GroupVersionKind `json:"kind" protobuf:"bytes,2,opt,name=kind"`
	// Resource is the resource written, in the version the rule matched.
	Resource GroupVersionResource `json:"resource" protobuf:"bytes,3,opt,name=resource"`
	// SubResource is "" for the main resource ("status", "scale", ...).
	SubResource string `json:"subResource,omitempty" protobuf:"bytes,4,opt,name=subResource"`
	// RequestKind, RequestResource and RequestSubResource are what the
	// client asked for, before any conversion.
	RequestKind        *GroupVersionKind     `json:"requestKind,omitempty" protobuf:"bytes,13,opt,name=requestKind"`
	RequestResource    *GroupVersionResource `json:"requestResource,omitempty" protobuf:"bytes,14,opt,name=requestResource"`
	RequestSubResource string                `json:"requestSubResource,omitempty" protobuf:"bytes,15,opt,name=requestSubResource"`
	// Name may be empty on a create whose name the server generates.
	Name      string    `json:"name,omitempty" protobuf:"bytes,5,opt,name=name"`
	Namespace string    `json:"namespace,omitempty" protobuf:"bytes,6,opt,name=namespace"`
	Operation Operation `json:"operation" protobuf:"bytes,7,opt,name=operation,casttype=Operation"`
	// UserInfo is who made the request.
	UserInfo authnv1.UserInfo `json:"userInfo" protobuf:"bytes,8,opt,name=userInfo"`
	// Object is the new object; absent on a delete.
	Object json.RawMessage `json:"object,omitempty" protobuf:"bytes,9,opt,name=object"`
	// OldObject is the stored object; absent on a create.
	OldObject json.RawMessage `json:"oldObject,omitempty" protobuf:"bytes,10,opt,name=oldObject"`
	// DryRun is true when nothing will be stored: a webhook with side
	// effects must not make them.
	DryRun *bool `json:"dryRun,omitempty" protobuf:"varint,11,opt,name=dryRun"`
	// Options are the write's CreateOptions, UpdateOptions, PatchOptions or
	// DeleteOptions (meta.platform.io/v1).
	Options json.RawMessage `json:"options,omitempty" protobuf:"bytes,12,opt,name=options"`
}

// PatchType is the format of AdmissionResponse.Patch.
type PatchType string

// PatchTypeJSONPatch is RFC 6902 JSON Patch, the only format accepted.
const PatchTypeJSONPatch PatchType = "JSONPatch"

// AdmissionResponse is a webhook's answer.
type AdmissionResponse struct {
	// UID is the request's UID.
	UID meta.UID `json:"uid" protobuf:"bytes,1,opt,name=uid,casttype=platform.io/client/api/meta.UID"`
	// Allowed admits the request.
	Allowed bool `json:"allowed" protobuf:"varint,2,opt,name=allowed"`
	// Result explains a refusal: its message and code reach the client.
	Result *meta.Status `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
	// Patch changes the object (mutating webhooks only).
	Patch []byte `json:"patch,omitempty" protobuf:"bytes,4,opt,name=patch"`
	// PatchType must be JSONPatch when Patch is set.
	PatchType *PatchType `json:"patchType,omitempty" protobuf:"bytes,5,opt,name=patchType"`
	// AuditAnnotations are added to the request's audit event.
	AuditAnnotations map[string]string `json:"auditAnnotations,omitempty" protobuf:"bytes,6,rep,name=auditAnnotations"`
	// Warnings reach the client as Warning headers.
	Warnings []string `json:"warnings,omitempty" protobuf:"bytes,7,rep,name=warnings"`
}
