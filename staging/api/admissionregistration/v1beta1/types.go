package v1beta1

import (
	v1 "platform.io/client/api/admissionregistration/v1"
	"platform.io/client/api/meta"
)

// ValidatingWebhookConfiguration registers validating webhooks.
type ValidatingWebhookConfiguration struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// Webhooks are called in parallel; their order does not matter.
	Webhooks []v1.ValidatingWebhook `json:"webhooks,omitempty" patchStrategy:"merge" patchMergeKey:"name" protobuf:"bytes,2,rep,name=Webhooks"`
}

// ValidatingWebhookConfigurationList is a page of ValidatingWebhookConfigurations.
type ValidatingWebhookConfigurationList struct {
	meta.TypeMeta `json:",inline"`
	meta.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items         []ValidatingWebhookConfiguration `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// MutatingWebhookConfiguration registers mutating webhooks.
type MutatingWebhookConfiguration struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// Webhooks are called in order (configurations in name order).
	Webhooks []v1.MutatingWebhook `json:"webhooks,omitempty" patchStrategy:"merge" patchMergeKey:"name" protobuf:"bytes,2,rep,name=Webhooks"`
}

// MutatingWebhookConfigurationList is a page of MutatingWebhookConfigurations.
type MutatingWebhookConfigurationList struct {
	meta.TypeMeta `json:",inline"`
	meta.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items         []MutatingWebhookConfiguration `json:"items" protobuf:"bytes,2,rep,name=items"`
}
