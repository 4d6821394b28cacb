package config

import (
	"bytes"
	"errors"
	"fmt"
	"os"

	"sigs.k8s.io/yaml"
)

// ErrInvalid marks a file that decodes but is not a valid configuration.
var ErrInvalid = errors.New("invalid scheduler configuration")

// Load reads the file at path (YAML or JSON) strictly: unknown fields, a
// wrong apiVersion or kind fail with the field named.
func Load(path string) (*Configuration, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read: %w", err)
	}
	return Decode(data)
}

// Decode decodes a configuration strictly, without defaulting.
func Decode(data []byte) (*Configuration, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("%w: the file is empty", ErrInvalid)
	}
	var head struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	if err := yaml.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	if head.APIVersion != APIVersion {
		return nil, fmt.Errorf("%w: apiVersion: %q is not %q", ErrInvalid, head.APIVersion, APIVersion)
	}
	if head.Kind != Kind {
		return nil, fmt.Errorf("%w: kind: %q is not %q", ErrInvalid, head.Kind, Kind)
	}
	var c Configuration
	if err := yaml.UnmarshalStrict(data, &c); err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	return &c, nil
}
