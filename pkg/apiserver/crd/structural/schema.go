package structural

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Schema is one node of a structural schema. JSON names are those of the
// openAPIV3Schema of upstream's CustomResourceDefinition (JSONSchemaProps),
// so a CRD's schema decodes into it directly.
type Schema struct {
	Type        string `json:"type,omitempty"`
	Format      string `json:"format,omitempty"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Nullable    bool   `json:"nullable,omitempty"`
	// Default is the value written where the field is absent, in the JSON
	// tree form described in the package comment.
	Default any `json:"default,omitempty"`

	Properties           map[string]*Schema `json:"properties,omitempty"`
	Items                *Schema            `json:"items,omitempty"`
	AdditionalProperties *SchemaOrBool      `json:"additionalProperties,omitempty"`
	Required             []string           `json:"required,omitempty"`

	// Value validations.
	Enum             []any    `json:"enum,omitempty"`
	Maximum          *float64 `json:"maximum,omitempty"`
	ExclusiveMaximum bool     `json:"exclusiveMaximum,omitempty"`
	Minimum          *float64 `json:"minimum,omitempty"`
	ExclusiveMinimum bool     `json:"exclusiveMinimum,omitempty"`
	MultipleOf       *float64 `json:"multipleOf,omitempty"`
	MaxLength        *int64   `json:"maxLength,omitempty"`
	MinLength        *int64   `json:"minLength,omitempty"`
	Pattern          string   `json:"pattern,omitempty"`
	MaxItems         *int64   `json:"maxItems,omitempty"`
	MinItems         *int64   `json:"minItems,omitempty"`
	UniqueItems      bool     `json:"uniqueItems,omitempty"`
	MaxProperties    *int64   `json:"maxProperties,omitempty"`
	MinProperties    *int64   `json:"minProperties,omitempty"`
	AllOf            []Schema `json:"allOf,omitempty"`
	AnyOf            []Schema `json:"anyOf,omitempty"`
	OneOf            []Schema `json:"oneOf,omitempty"`
	Not              *Schema  `json:"not,omitempty"`

	// Documentation only: kept so a CRD's schema round-trips, never checked
	// against objects.
	SchemaURI    string        `json:"$schema,omitempty"`
	Example      any           `json:"example,omitempty"`
	ExternalDocs *ExternalDocs `json:"externalDocs,omitempty"`

	// Extensions.
	PreserveUnknownFields *bool            `json:"x-kubernetes-preserve-unknown-fields,omitempty"`
	EmbeddedResource      bool             `json:"x-kubernetes-embedded-resource,omitempty"`
	IntOrString           bool             `json:"x-kubernetes-int-or-string,omitempty"`
	ListType              *string          `json:"x-kubernetes-list-type,omitempty"`
	ListMapKeys           []string         `json:"x-kubernetes-list-map-keys,omitempty"`
	MapType               *string          `json:"x-kubernetes-map-type,omitempty"`
	Validations           []ValidationRule `json:"x-kubernetes-validations,omitempty"`
}

// ValidationRule is one x-kubernetes-validations entry: a CEL expression
// over self (and oldSelf, which makes it a transition rule).
type ValidationRule struct {
	Rule              string  `json:"rule"`
	Message           string  `json:"message,omitempty"`
	MessageExpression string  `json:"messageExpression,omitempty"`
	Reason            *string `json:"reason,omitempty"`
	FieldPath         string  `json:"fieldPath,omitempty"`
	OptionalOldSelf   *bool   `json:"optionalOldSelf,omitempty"`
}

// ExternalDocs points to documentation outside the schema.
type ExternalDocs struct {
	Description string `json:"description,omitempty"`
	URL         string `json:"url,omitempty"`
}

// SchemaOrBool is additionalProperties: false, true, or the schema of
// every value of a map.
type SchemaOrBool struct {
	Allows bool
	Schema *Schema
}

// UnmarshalJSON reads a boolean or a schema object (which allows).
func (s *SchemaOrBool) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '{' {
		var sch Schema
		if err := json.Unmarshal(data, &sch); err != nil {
			return err
		}
		*s = SchemaOrBool{Allows: true, Schema: &sch}
		return nil
	}
	var b bool
	if err := json.Unmarshal(data, &b); err != nil {
		return fmt.Errorf("structural: additionalProperties must be a boolean or a schema: %w", err)
	}
	*s = SchemaOrBool{Allows: b}
	return nil
}

// MarshalJSON writes the schema, or the boolean when there is none.
func (s SchemaOrBool) MarshalJSON() ([]byte, error) {
	if s.Schema != nil {
		return json.Marshal(s.Schema)
	}
	return json.Marshal(s.Allows)
}
