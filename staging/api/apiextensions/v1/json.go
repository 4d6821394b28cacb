package v1

import (
	"bytes"
	"encoding/json"
	"fmt"
)

var null = []byte("null")

// MarshalJSON writes the value held, or null when there is none.
func (j JSON) MarshalJSON() ([]byte, error) {
	if len(j.Raw) == 0 {
		return null, nil
	}
	return j.Raw, nil
}

// UnmarshalJSON keeps a copy of data; null leaves j empty.
func (j *JSON) UnmarshalJSON(data []byte) error {
	if bytes.Equal(bytes.TrimSpace(data), null) {
		j.Raw = nil
		return nil
	}
	j.Raw = append(j.Raw[:0], data...)
	return nil
}

// MarshalJSON writes the one schema, or the list of schemas.
func (s JSONSchemaPropsOrArray) MarshalJSON() ([]byte, error) {
	if s.Schema != nil {
		return json.Marshal(s.Schema)
	}
	if s.JSONSchemas == nil {
		return null, nil
	}
	return json.Marshal(s.JSONSchemas)
}

// UnmarshalJSON reads a schema object or an array of them.
func (s *JSONSchemaPropsOrArray) UnmarshalJSON(data []byte) error {
	*s = JSONSchemaPropsOrArray{}
	switch firstByte(data) {
	case '{':
		s.Schema = new(JSONSchemaProps)
		return json.Unmarshal(data, s.Schema)
	case '[':
		return json.Unmarshal(data, &s.JSONSchemas)
	case 'n':
		return nil
	}
	return fmt.Errorf("apiextensions: items must be a schema or an array of schemas, not %.20s", data)
}

// MarshalJSON writes the schema, or the boolean when there is none.
func (s JSONSchemaPropsOrBool) MarshalJSON() ([]byte, error) {
	if s.Schema != nil {
		return json.Marshal(s.Schema)
	}
	return json.Marshal(s.Allows)
}

// UnmarshalJSON reads a boolean or a schema object (which allows); null is true.
func (s *JSONSchemaPropsOrBool) UnmarshalJSON(data []byte) error {
	*s = JSONSchemaPropsOrBool{}
	switch firstByte(data) {
	case '{':
		s.Allows, s.Schema = true, new(JSONSchemaProps)
		return json.Unmarshal(data, s.Schema)
	case 'n':
		s.Allows = true
		return nil
	}
	if err := json.Unmarshal(data, &s.Allows); err != nil {
		return fmt.Errorf("apiextensions: must be a boolean or a schema: %w", err)
	}
	return nil
}

// MarshalJSON writes the schema, or the property list when there is none.
func (s JSONSchemaPropsOrStringArray) MarshalJSON() ([]byte, error) {
	if s.Schema != nil {
		return json.Marshal(s.Schema)
	}
	if s.Property == nil {
		return null, nil
	}
	return json.Marshal(s.Property)
}

// UnmarshalJSON reads a schema object or an array of property names.
func (s *JSONSchemaPropsOrStringArray) UnmarshalJSON(data []byte) error {
	*s = JSONSchemaPropsOrStringArray{}
	switch firstByte(data) {
	case '{':
		s.Schema = new(JSONSchemaProps)
		return json.Unmarshal(data, s.Schema)
	case '[':
		return json.Unmarshal(data, &s.Property)
	case 'n':
		return nil
	}
	return fmt.Errorf("apiextensions: a dependency must be a schema or an array of names, not %.20s", data)
}

func firstByte(data []byte) byte {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return 0
	}
	return data[0]
}
