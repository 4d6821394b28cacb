package v1

import "platform.io/client/api/meta"

// FailurePolicyType decides what a failed call to a webhook means.
type FailurePolicyType string

// The failure policies.
const (
	// Ignore lets the request through when the webhook cannot be called.
	Ignore FailurePolicyType = "Ignore"
	// Fail refuses the request when the webhook cannot be called.
	Fail FailurePolicyType = "Fail"
)

// MatchPolicyType decides how rules match requests.
type MatchPolicyType string

// The match policies.
const (
	// Exact matches only requests that name a resource of the rules.
	Exact MatchPolicyType = "Exact"
	// Equivalent also matches a request for another version (or group
	// alias) of a resource of the rules, converted to the rule's version.
	Equivalent MatchPolicyType = "Equivalent"
)

// SideEffectClass declares what a webhook does besides answering.
type SideEffectClass string

// The side-effect classes. Only None and NoneOnDryRun are accepted in v1.
const (
	SideEffectClassUnknown      SideEffectClass = "Unknown"
	SideEffectClassNone         SideEffectClass = "None"
	SideEffectClassSome         SideEffectClass = "Some"
	SideEffectClassNoneOnDryRun SideEffectClass = "NoneOnDryRun"
)

// ReinvocationPolicyType decides whether a mutating webhook is called again
// when a later plugin changed the object.
type ReinvocationPolicyType string

// The reinvocation policies.
const (
	NeverReinvocationPolicy    ReinvocationPolicyType = "Never"
	IfNeededReinvocationPolicy ReinvocationPolicyType = "IfNeeded"
)

// ServiceReference reaches a webhook through a Service.
type ServiceReference struct {
	Namespace string `json:"namespace" protobuf:"bytes,1,opt,name=namespace"`
	Name      string `json:"name" protobuf:"bytes,2,opt,name=name"`
	// Path is the URL path sent to; nil is "/".
	Path *string `json:"path,omitempty" protobuf:"bytes,3,opt,name=path"`
	// Port is the Service port; defaults to 443.
	Port *int32 `json:"port,omitempty" protobuf:"varint,4,opt,name=port"`
}

// WebhookClientConfig says how to reach a webhook: by URL or by Service.
type WebhookClientConfig struct {
	// URL is an https:// address without user info, fragment or query.
	URL *string `json:"url,omitempty" protobuf:"bytes,3,opt,name=url"`
	// Service is a Service in the cluster; its certificate must be valid for
	// <name>.<namespace>.svc.
	Service *ServiceReference `json:"service,omitempty" protobuf:"bytes,1,opt,name=service"`
	// CABundle is the PEM bundle that verifies the webhook's certificate;
	// empty means the system roots.
	CABundle []byte `json:"caBundle,omitempty" protobuf:"bytes,2,opt,name=caBundle"`
}

// ValidatingWebhook is one webhook that accepts or refuses requests.
type ValidatingWebhook struct {
	// Name is a qualified name, unique in its configuration ("check.example.com").
	Name         string              `json:"name" protobuf:"bytes,1,opt,name=name"`
	ClientConfig WebhookClientConfig `json:"clientConfig" protobuf:"bytes,2,opt,name=clientConfig"`
	// Rules select the requests sent; a request matching any rule is sent.
	Rules []RuleWithOperations `json:"rules,omitempty" protobuf:"bytes,3,rep,name=rules"`
	// FailurePolicy defaults to Fail.
	FailurePolicy *FailurePolicyType `json:"failurePolicy,omitempty" protobuf:"bytes,4,opt,name=failurePolicy,casttype=FailurePolicyType"`
	// MatchPolicy defaults to Equivalent.
	MatchPolicy *MatchPolicyType `json:"matchPolicy,omitempty" protobuf:"bytes,9,opt,name=matchPolicy,casttype=MatchPolicyType"`
	// NamespaceSelector selects by the labels of the object's namespace (of
	// the namespace itself for a Namespace); defaults to everything.
	NamespaceSelector *meta.LabelSelector `json:"namespaceSelector,omitempty" protobuf:"bytes,5,opt,name=namespaceSelector"`
	// ObjectSelector selects by the labels of the object or the old object;
	// defaults to everything.
	ObjectSelector *meta.LabelSelector `json:"objectSelector,omitempty" protobuf:"bytes,10,opt,name=objectSelector"`
	// SideEffects is required: None or NoneOnDryRun.
	SideEffects *SideEffectClass `json:"sideEffects" protobuf:"bytes,6,opt,name=sideEffects,casttype=SideEffectClass"`
	// TimeoutSeconds bounds a call, 1 to 30; defaults to 10.
	TimeoutSeconds *int32 `json:"timeoutSeconds,omitempty" protobuf:"varint,7,opt,name=timeoutSeconds"`
	// AdmissionReviewVersions are the AdmissionReview versions the webhook
	// understands, preferred first; the server sends the first it knows.
	AdmissionReviewVersions []string `json:"admissionReviewVersions" protobuf:"bytes,8,rep,name=admissionReviewVersions"`
}

// MutatingWebhook is one webhook that may change objects (by JSON Patch)
// as well as refuse them.
type MutatingWebhook struct {
	Name                    string               `json:"name" protobuf:"bytes,1,opt,name=name"`
	ClientConfig            WebhookClientConfig  `json:"clientConfig" protobuf:"bytes,2,opt,name=clientConfig"`
	Rules                   []RuleWithOperations `json:"rules,omitempty" protobuf:"bytes,3,rep,name=rules"`
	FailurePolicy           *FailurePolicyType   `json:"failurePolicy,omitempty" protobuf:"bytes,4,opt,name=failurePolicy,casttype=FailurePolicyType"`
	MatchPolicy             *MatchPolicyType     `json:"matchPolicy,omitempty" protobuf:"bytes,9,opt,name=matchPolicy,casttype=MatchPolicyType"`
	NamespaceSelector       *meta.LabelSelector  `json:"namespaceSelector,omitempty" protobuf:"bytes,5,opt,name=namespaceSelector"`
	ObjectSelector          *meta.LabelSelector  `json:"objectSelector,omitempty" protobuf:"bytes,11,opt,name=objectSelector"`
	SideEffects             *SideEffectClass     `json:"sideEffects" protobuf:"bytes,6,opt,name=sideEffects,casttype=SideEffectClass"`
	TimeoutSeconds          *int32               `json:"timeoutSeconds,omitempty" protobuf:"varint,7,opt,name=timeoutSeconds"`
	AdmissionReviewVersions []string             `json:"admissionReviewVersions" protobuf:"bytes,8,rep,name=admissionReviewVersions"`
	// ReinvocationPolicy IfNeeded calls the webhook once more when a later
	// plugin changed the object after it; defaults to Never.
	ReinvocationPolicy *ReinvocationPolicyType `json:"reinvocationPolicy,omitempty" protobuf:"bytes,10,opt,name=reinvocationPolicy,casttype=ReinvocationPolicyType"`
}

// ValidatingWebhookConfiguration registers validating webhooks.
type ValidatingWebhookConfiguration struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// Webhooks are called in parallel; their order does not matter.
	Webhooks []ValidatingWebhook `json:"webhooks,omitempty" patchStrategy:"merge" patchMergeKey:"name" protobuf:"bytes,2,rep,name=Webhooks"`
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
	Webhooks []MutatingWebhook `json:"webhooks,omitempty" patchStrategy:"merge" patchMergeKey:"name" protobuf:"bytes,2,rep,name=Webhooks"`
}

// MutatingWebhookConfigurationList is a page of MutatingWebhookConfigurations.
type MutatingWebhookConfigurationList struct {
	meta.TypeMeta `json:",inline"`
	meta.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items         []MutatingWebhookConfiguration `json:"items" protobuf:"bytes,2,rep,name=items"`
}
