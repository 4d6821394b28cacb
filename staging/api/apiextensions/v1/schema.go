package v1

// JSONSchemaProps is a node of a version's openAPIV3Schema: JSON Schema
// draft 4 as OpenAPI v3 restricts it, with the x-kubernetes extensions.
// Its protobuf methods are written by hand (proto.go): upstream encodes
// maximum, minimum and multipleOf as doubles.
type JSONSchemaProps struct {
	ID                   string                                  `json:"id,omitempty" protobuf:"bytes,1,opt,name=id"`
	Schema               string                                  `json:"$schema,omitempty" protobuf:"bytes,2,opt,name=schema"`
	Ref                  *string                                 `json:"$ref,omitempty" protobuf:"bytes,3,opt,name=ref"`
	Description          string                                  `json:"description,omitempty" protobuf:"bytes,4,opt,name=description"`
	Type                 string                                  `json:"type,omitempty" protobuf:"bytes,5,opt,name=type"`
	Format               string                                  `json:"format,omitempty" protobuf:"bytes,6,opt,name=format"`
	Title                string                                  `json:"title,omitempty" protobuf:"bytes,7,opt,name=title"`
	Default              *JSON                                   `json:"default,omitempty" protobuf:"bytes,8,opt,name=default"`
	Maximum              *float64                                `json:"maximum,omitempty" protobuf:"bytes,9,opt,name=maximum"`
	ExclusiveMaximum     bool                                    `json:"exclusiveMaximum,omitempty" protobuf:"bytes,10,opt,name=exclusiveMaximum"`
	Minimum              *float64                                `json:"minimum,omitempty" protobuf:"bytes,11,opt,name=minimum"`
	ExclusiveMinimum     bool                                    `json:"exclusiveMinimum,omitempty" protobuf:"bytes,12,opt,name=exclusiveMinimum"`
	MaxLength            *int64                                  `json:"maxLength,omitempty" protobuf:"bytes,13,opt,name=maxLength"`
	MinLength            *int64                                  `json:"minLength,omitempty" protobuf:"bytes,14,opt,name=minLength"`
	Pattern              string                                  `json:"pattern,omitempty" protobuf:"bytes,15,opt,name=pattern"`
	MaxItems             *int64                                  `json:"maxItems,omitempty" protobuf:"bytes,16,opt,name=maxItems"`
	MinItems             *int64                                  `json:"minItems,omitempty" protobuf:"bytes,17,opt,name=minItems"`
	UniqueItems          bool                                    `json:"uniqueItems,omitempty" protobuf:"bytes,18,opt,name=uniqueItems"`
	MultipleOf           *float64                                `json:"multipleOf,omitempty" protobuf:"bytes,19,opt,name=multipleOf"`
	Enum                 []JSON                                  `json:"enum,omitempty" protobuf:"bytes,20,rep,name=enum"`
	MaxProperties        *int64                                  `json:"maxProperties,omitempty" protobuf:"bytes,21,opt,name=maxProperties"`
	MinProperties        *int64                                  `json:"minProperties,omitempty" protobuf:"bytes,22,opt,name=minProperties"`
	Required             []string                                `json:"required,omitempty" protobuf:"bytes,23,rep,name=required"`
	Items                *JSONSchemaPropsOrArray                 `json:"items,omitempty" protobuf:"bytes,24,opt,name=items"`
	AllOf                []JSONSchemaProps                       `json:"allOf,omitempty" protobuf:"bytes,25,rep,name=allOf"`
	OneOf                []JSONSchemaProps                       `json:"oneOf,omitempty" protobuf:"bytes,26,rep,name=oneOf"`
	AnyOf                []JSONSchemaProps                       `json:"anyOf,omitempty" protobuf:"bytes,27,rep,name=anyOf"`
	Not                  *JSONSchemaProps                        `json:"not,omitempty" protobuf:"bytes,28,opt,name=not"`
	Properties           map[string]JSONSchemaProps              `json:"properties,omitempty" protobuf:"bytes,29,rep,name=properties"`
	AdditionalProperties *JSONSchemaPropsOrBool                  `json:"additionalProperties,omitempty" protobuf:"bytes,30,opt,name=additionalProperties"`
	PatternProperties    map[string]JSONSchemaProps              `json:"patternProperties,omitempty" protobuf:"bytes,31,rep,name=patternProperties"`
	Dependencies         map[string]JSONSchemaPropsOrStringArray `json:"dependencies,omitempty" protobuf:"bytes,32,opt,name=dependencies"`
	AdditionalItems      *JSONSchemaPropsOrBool                  `json:"additionalItems,omitempty" protobuf:"bytes,33,opt,name=additionalItems"`
	Definitions          map[string]JSONSchemaProps              `json:"definitions,omitempty" protobuf:"bytes,34,opt,name=definitions"`
	ExternalDocs         *ExternalDocumentation                  `json:"externalDocs,omitempty" protobuf:"bytes,35,opt,name=externalDocs"`
	Example              *JSON                                   `json:"example,omitempty" protobuf:"bytes,36,opt,name=example"`
	Nullable             bool                                    `json:"nullable,omitempty" protobuf:"bytes,37,opt,name=nullable"`
	// XPreserveUnknownFields keeps fields the schema does not name, below
	// this node until a node names properties again. Only true is allowed.
	XPreserveUnknownFields *bool `json:"x-kubernetes-preserve-unknown-fields,omitempty" protobuf:"bytes,38,opt,name=xKubernetesPreserveUnknownFields"`
	// XEmbeddedResource marks an object with apiVersion, kind and metadata.
	XEmbeddedResource bool `json:"x-kubernetes-embedded-resource,omitempty" protobuf:"bytes,39,opt,name=xKubernetesEmbeddedResource"`
	// XIntOrString allows an integer or a string.
	XIntOrString bool `json:"x-kubernetes-int-or-string,omitempty" protobuf:"bytes,40,opt,name=xKubernetesIntOrString"`
	// XListMapKeys are the keys of a list of type map.
	XListMapKeys []string `json:"x-kubernetes-list-map-keys,omitempty" protobuf:"bytes,41,rep,name=xKubernetesListMapKeys"`
	// XListType is atomic, set or map.
	XListType *string `json:"x-kubernetes-list-type,omitempty" protobuf:"bytes,42,opt,name=xKubernetesListType"`
	// XMapType is granular or atomic.
	XMapType *string `json:"x-kubernetes-map-type,omitempty" protobuf:"bytes,43,opt,name=xKubernetesMapType"`
	// XValidations are CEL rules over self (and oldSelf).
	XValidations []ValidationRule `json:"x-kubernetes-validations,omitempty" protobuf:"bytes,44,rep,name=xKubernetesValidations"`
}

// ValidationRule is one x-kubernetes-validations CEL rule.
type ValidationRule struct {
	Rule              string  `json:"rule" protobuf:"bytes,1,opt,name=rule"`
	Message           string  `json:"message,omitempty" protobuf:"bytes,2,opt,name=message"`
	MessageExpression string  `json:"messageExpression,omitempty" protobuf:"bytes,3,opt,name=messageExpression"`
	Reason            *string `json:"reason,omitempty" protobuf:"bytes,4,opt,name=reason"`
	FieldPath         string  `json:"fieldPath,omitempty" protobuf:"bytes,5,opt,name=fieldPath"`
	OptionalOldSelf   *bool   `json:"optionalOldSelf,omitempty" protobuf:"varint,6,opt,name=optionalOldSelf"`
}

// ExternalDocumentation points at documentation elsewhere.
type ExternalDocumentation struct {
	Description string `json:"description,omitempty" protobuf:"bytes,1,opt,name=description"`
	URL         string `json:"url,omitempty" protobuf:"bytes,2,opt,name=url"`
}

// JSON is any JSON value, kept as its encoding (defaults, enum values,
// examples). In protobuf it is upstream's message {bytes raw = 1}.
type JSON struct {
	Raw []byte `protobuf:"bytes,1,opt,name=raw"`
}

// JSONSchemaPropsOrArray is items: one schema for every element, or
// (JSON Schema's tuple form, refused by structural schemas) one per position.
type JSONSchemaPropsOrArray struct {
	Schema      *JSONSchemaProps  `protobuf:"bytes,1,opt,name=schema"`
	JSONSchemas []JSONSchemaProps `protobuf:"bytes,2,rep,name=jSONSchemas"`
}

// JSONSchemaPropsOrBool is additionalProperties or additionalItems: a
// boolean, or a schema (which allows).
type JSONSchemaPropsOrBool struct {
	Allows bool             `protobuf:"varint,1,opt,name=allows"`
	Schema *JSONSchemaProps `protobuf:"bytes,2,opt,name=schema"`
}

// JSONSchemaPropsOrStringArray is a dependencies entry: a schema or a list
// of property names.
type JSONSchemaPropsOrStringArray struct {
	Schema   *JSONSchemaProps `protobuf:"bytes,1,opt,name=schema"`
	Property []string         `protobuf:"bytes,2,rep,name=property"`
}
