package v1

import "platform.io/client/api/meta"

// CustomResourceDefinition declares a custom resource type. Its name is
// <spec.names.plural>.<spec.group>; once it is Established the API server
// serves its versions under /apis/<group>/<version>/<plural>.
type CustomResourceDefinition struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// Spec is how the type is to be served.
	Spec CustomResourceDefinitionSpec `json:"spec" protobuf:"bytes,2,opt,name=spec"`
	// Status is what the API server made of it.
	Status CustomResourceDefinitionStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// CustomResourceDefinitionList is a page of CustomResourceDefinitions.
type CustomResourceDefinitionList struct {
	meta.TypeMeta `json:",inline"`
	meta.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items         []CustomResourceDefinition `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// ResourceScope says whether custom objects live in namespaces.
type ResourceScope string

// The two scopes.
const (
	ClusterScoped   ResourceScope = "Cluster"
	NamespaceScoped ResourceScope = "Namespaced"
)

// CustomResourceDefinitionSpec is how a custom type is served.
type CustomResourceDefinitionSpec struct {
	// Group is the API group of the type: objects are served under /apis/<group>/.
	Group string `json:"group" protobuf:"bytes,1,opt,name=group"`
	// Names are the resource and kind names of the type.
	Names CustomResourceDefinitionNames `json:"names" protobuf:"bytes,3,opt,name=names"`
	// Scope is Namespaced or Cluster; it cannot change.
	Scope ResourceScope `json:"scope" protobuf:"bytes,4,opt,name=scope,casttype=ResourceScope"`
	// Versions are the versions of the type; exactly one is the storage version.
	Versions []CustomResourceDefinitionVersion `json:"versions" protobuf:"bytes,7,rep,name=versions"`
	// Conversion says how objects move between versions.
	Conversion *CustomResourceConversion `json:"conversion,omitempty" protobuf:"bytes,9,opt,name=conversion"`
	// PreserveUnknownFields keeps fields the schema does not name. Only
	// false is accepted in v1; schemas say x-kubernetes-preserve-unknown-fields instead.
	PreserveUnknownFields bool `json:"preserveUnknownFields,omitempty" protobuf:"varint,10,opt,name=preserveUnknownFields"`
}

// CustomResourceDefinitionNames names the resource and its kind.
type CustomResourceDefinitionNames struct {
	// Plural is the resource name in URLs; it must be lowercase.
	Plural string `json:"plural" protobuf:"bytes,1,opt,name=plural"`
	// Singular defaults to the lowercased kind.
	Singular string `json:"singular,omitempty" protobuf:"bytes,2,opt,name=singular"`
	// ShortNames are advertised in discovery for clients such as kubectl.
	ShortNames []string `json:"shortNames,omitempty" protobuf:"bytes,3,rep,name=shortNames"`
	// Kind is the kind of the objects, CamelCase.
	Kind string `json:"kind" protobuf:"bytes,4,opt,name=kind"`
	// ListKind is the kind of lists; it defaults to <kind>List.
	ListKind string `json:"listKind,omitempty" protobuf:"bytes,5,opt,name=listKind"`
	// Categories are the groups of resources this one belongs to ("all").
	Categories []string `json:"categories,omitempty" protobuf:"bytes,6,rep,name=categories"`
}

// CustomResourceDefinitionVersion is one version of a custom type.
type CustomResourceDefinitionVersion struct {
	// Name is the version, as in /apis/<group>/<name>.
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
	// Served says the version is served.
	Served bool `json:"served" protobuf:"varint,2,opt,name=served"`
	// Storage marks the version objects are stored in; exactly one has it.
	Storage bool `json:"storage" protobuf:"varint,3,opt,name=storage"`
	// Deprecated makes responses of this version carry a warning.
	Deprecated bool `json:"deprecated,omitempty" protobuf:"varint,7,opt,name=deprecated"`
	// DeprecationWarning replaces the default warning; only with Deprecated.
	DeprecationWarning *string `json:"deprecationWarning,omitempty" protobuf:"bytes,8,opt,name=deprecationWarning"`
	// Schema validates, prunes and defaults the objects of this version.
	Schema *CustomResourceValidation `json:"schema,omitempty" protobuf:"bytes,4,opt,name=schema"`
	// Subresources are the status and scale subresources served.
	Subresources *CustomResourceSubresources `json:"subresources,omitempty" protobuf:"bytes,5,opt,name=subresources"`
	// AdditionalPrinterColumns are the Table columns besides the name.
	AdditionalPrinterColumns []CustomResourceColumnDefinition `json:"additionalPrinterColumns,omitempty" protobuf:"bytes,6,rep,name=additionalPrinterColumns"`
	// SelectableFields are the fields a fieldSelector may name besides
	// metadata.name and metadata.namespace.
	SelectableFields []SelectableField `json:"selectableFields,omitempty" protobuf:"bytes,9,rep,name=selectableFields"`
}

// SelectableField names a field usable in field selectors.
type SelectableField struct {
	// JSONPath is a simple path (no arrays) to a string, boolean or integer field.
	JSONPath string `json:"jsonPath" protobuf:"bytes,1,opt,name=jsonPath"`
}

// CustomResourceColumnDefinition is one printer column of Table output.
type CustomResourceColumnDefinition struct {
	Name        string `json:"name" protobuf:"bytes,1,opt,name=name"`
	Type        string `json:"type" protobuf:"bytes,2,opt,name=type"`
	Format      string `json:"format,omitempty" protobuf:"bytes,3,opt,name=format"`
	Description string `json:"description,omitempty" protobuf:"bytes,4,opt,name=description"`
	Priority    int32  `json:"priority,omitempty" protobuf:"bytes,5,opt,name=priority"`
	// JSONPath is evaluated against each object to give the cell.
	JSONPath string `json:"jsonPath" protobuf:"bytes,6,opt,name=jsonPath"`
}

// CustomResourceValidation holds a version's schema.
type CustomResourceValidation struct {
	// OpenAPIV3Schema is the structural schema of the version's objects.
	OpenAPIV3Schema *JSONSchemaProps `json:"openAPIV3Schema,omitempty" protobuf:"bytes,1,opt,name=openAPIV3Schema"`
}

// CustomResourceSubresources are the subresources of a version.
type CustomResourceSubresources struct {
	// Status serves /status; main-resource writes then ignore .status.
	Status *CustomResourceSubresourceStatus `json:"status,omitempty" protobuf:"bytes,1,opt,name=status"`
	// Scale serves /scale as an autoscaling/v1 Scale.
	Scale *CustomResourceSubresourceScale `json:"scale,omitempty" protobuf:"bytes,2,opt,name=scale"`
}

// CustomResourceSubresourceStatus enables the status subresource; it has no fields.
type CustomResourceSubresourceStatus struct{}

// CustomResourceSubresourceScale says where the scale subresource's fields live.
type CustomResourceSubresourceScale struct {
	// SpecReplicasPath is the path under .spec of the desired replicas.
	SpecReplicasPath string `json:"specReplicasPath" protobuf:"bytes,1,opt,name=specReplicasPath"`
	// StatusReplicasPath is the path under .status of the observed replicas.
	StatusReplicasPath string `json:"statusReplicasPath" protobuf:"bytes,2,opt,name=statusReplicasPath"`
	// LabelSelectorPath is the path of the serialized label selector.
	LabelSelectorPath *string `json:"labelSelectorPath,omitempty" protobuf:"bytes,3,opt,name=labelSelectorPath"`
}

// ConversionStrategyType is how objects move between versions.
type ConversionStrategyType string

// The conversion strategies.
const (
	// NoneConverter only rewrites apiVersion.
	NoneConverter ConversionStrategyType = "None"
	// WebhookConverter calls a webhook with a ConversionReview.
	WebhookConverter ConversionStrategyType = "Webhook"
)

// CustomResourceConversion says how objects move between versions.
type CustomResourceConversion struct {
	// Strategy is None (the default) or Webhook.
	Strategy ConversionStrategyType `json:"strategy" protobuf:"bytes,1,opt,name=strategy"`
	// Webhook is required with the Webhook strategy.
	Webhook *WebhookConversion `json:"webhook,omitempty" protobuf:"bytes,2,opt,name=webhook"`
}

// WebhookConversion is how to call a conversion webhook.
type WebhookConversion struct {
	ClientConfig *WebhookClientConfig `json:"clientConfig,omitempty" protobuf:"bytes,2,opt,name=clientConfig"`
	// ConversionReviewVersions are the ConversionReview versions the
	// webhook accepts, preferred first.
	ConversionReviewVersions []string `json:"conversionReviewVersions" protobuf:"bytes,3,rep,name=conversionReviewVersions"`
}

// WebhookClientConfig is how to reach a webhook: a URL or a service.
type WebhookClientConfig struct {
	// URL is an https URL, without user info, query or fragment.
	URL *string `json:"url,omitempty" protobuf:"bytes,3,opt,name=url"`
	// Service is a service in the cluster.
	Service *ServiceReference `json:"service,omitempty" protobuf:"bytes,1,opt,name=service"`
	// CABundle is the PEM bundle that verifies the webhook's certificate.
	CABundle []byte `json:"caBundle,omitempty" protobuf:"bytes,2,opt,name=caBundle"`
}

// ServiceReference names a service and where on it the webhook listens.
type ServiceReference struct {
	Namespace string  `json:"namespace" protobuf:"bytes,1,opt,name=namespace"`
	Name      string  `json:"name" protobuf:"bytes,2,opt,name=name"`
	Path      *string `json:"path,omitempty" protobuf:"bytes,3,opt,name=path"`
	// Port defaults to 443.
	Port *int32 `json:"port,omitempty" protobuf:"varint,4,opt,name=port"`
}

// CustomResourceDefinitionStatus is what the API server made of a definition.
type CustomResourceDefinitionStatus struct {
	// Conditions are NamesAccepted, Established and Terminating.
	Conditions []CustomResourceDefinitionCondition `json:"conditions,omitempty" protobuf:"bytes,1,opt,name=conditions"`
	// AcceptedNames are the names served, which may lag behind spec.names.
	AcceptedNames CustomResourceDefinitionNames `json:"acceptedNames" protobuf:"bytes,2,opt,name=acceptedNames"`
	// StoredVersions are every version objects were ever stored in.
	StoredVersions []string `json:"storedVersions" protobuf:"bytes,3,rep,name=storedVersions"`
}

// CustomResourceDefinitionConditionType names a condition.
type CustomResourceDefinitionConditionType string

// The conditions of a definition.
const (
	// Established means the type is served.
	Established CustomResourceDefinitionConditionType = "Established"
	// NamesAccepted means the names clash with no other resource.
	NamesAccepted CustomResourceDefinitionConditionType = "NamesAccepted"
	// Terminating means the definition is being deleted with its objects.
	Terminating CustomResourceDefinitionConditionType = "Terminating"
)

// ConditionStatus is True, False or Unknown.
type ConditionStatus string

// The condition statuses.
const (
	ConditionTrue    ConditionStatus = "True"
	ConditionFalse   ConditionStatus = "False"
	ConditionUnknown ConditionStatus = "Unknown"
)

// CustomResourceDefinitionCondition is one condition of a definition.
type CustomResourceDefinitionCondition struct {
	Type               CustomResourceDefinitionConditionType `json:"type" protobuf:"bytes,1,opt,name=type"`
	Status             ConditionStatus                       `json:"status" protobuf:"bytes,2,opt,name=status"`
	LastTransitionTime meta.Time                             `json:"lastTransitionTime,omitempty" protobuf:"bytes,3,opt,name=lastTransitionTime"`
	Reason             string                                `json:"reason,omitempty" protobuf:"bytes,4,opt,name=reason"`
	Message            string                                `json:"message,omitempty" protobuf:"bytes,5,opt,name=message"`
}

// CustomResourceCleanupFinalizer is the finalizer that deletes every
// object of a definition before the definition goes.
const CustomResourceCleanupFinalizer = "customresourcecleanup.apiextensions.k8s.io"
