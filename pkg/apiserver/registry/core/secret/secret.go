package secret

import (
	"encoding/json"
	"strings"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/registry/core/corevalidation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// Resource is the secrets row of the registry.
func Resource() *registry.Resource {
	return &registry.Resource{
		Group: "", Version: "v1", Name: "secrets", Singular: "secret", Kind: "Secret",
		Namespaced: true,
		New:        func() meta.Object { return &corev1.Secret{} },
		Strategy: registry.Typed[corev1.Secret]{
			DefaultFunc:          setDefaults,
			PrepareForCreateFunc: mergeStringData,
			PrepareForUpdateFunc: func(s, _ *corev1.Secret) { mergeStringData(s) },
			ValidateFunc:         validate,
			ValidateUpdateFunc:   validateUpdate,
		},
		SelectableFields: func(obj meta.Object) map[string]string {
			return map[string]string{"type": string(obj.(*corev1.Secret).Type)}
		},
	}
}

func setDefaults(s *corev1.Secret) {
	if s.Type == "" {
		s.Type = corev1.SecretTypeOpaque
	}
}

// mergeStringData copies stringData into data, overriding keys present in
// both, and clears it: stringData is write-only.
func mergeStringData(s *corev1.Secret) {
	if len(s.StringData) > 0 && s.Data == nil {
		s.Data = make(map[string][]byte, len(s.StringData))
	}
	for k, v := range s.StringData {
		s.Data[k] = []byte(v)
	}
	s.StringData = nil
}

// upstreamPrefix is the domain upstream clients use in built-in secret
// types; such types are accepted alongside the platform.io ones.
const upstreamPrefix = "kubernetes.io/"

// canonicalType maps an upstream-branded built-in type to its platform.io name.
func canonicalType(t corev1.SecretType) corev1.SecretType {
	if rest, ok := strings.CutPrefix(string(t), upstreamPrefix); ok {
		return corev1.SecretType("platform.io/" + rest)
	}
	return t
}

// validate checks keys, the total size, and the keys each built-in type requires.
func validate(s *corev1.Secret) field.ErrorList {
	dataPath := field.NewPath("data")
	errs := corevalidation.Keys(dataPath, s.Data)
	size := 0
	for _, v := range s.Data {
		size += len(v)
	}
	if size > corev1.MaxSecretSize {
		errs = append(errs, field.TooLong(dataPath, corev1.MaxSecretSize))
	}
	return append(errs, validateType(s, dataPath)...)
}

// validateType checks the keys and annotations a built-in secret type needs.
func validateType(s *corev1.Secret, dataPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	require := func(key string) {
		if _, ok := s.Data[key]; !ok {
			errs = append(errs, field.Required(dataPath.Key(key), ""))
		}
	}
	switch canonicalType(s.Type) {
	case corev1.SecretTypeServiceAccountToken:
		if s.Annotations[corev1.ServiceAccountNameKey] == "" && s.Annotations[upstreamPrefix+"service-account.name"] == "" {
			errs = append(errs, field.Required(field.NewPath("metadata", "annotations").Key(corev1.ServiceAccountNameKey), ""))
		}
	case corev1.SecretTypeDockercfg:
		errs = append(errs, requireJSON(s.Data, corev1.DockerConfigKey, dataPath)...)
	case corev1.SecretTypeDockerConfigJson:
		errs = append(errs, requireJSON(s.Data, corev1.DockerConfigJsonKey, dataPath)...)
	case corev1.SecretTypeBasicAuth:
		_, user := s.Data[corev1.BasicAuthUsernameKey]
		_, pass := s.Data[corev1.BasicAuthPasswordKey]
		if !user && !pass {
			require(corev1.BasicAuthUsernameKey)
			require(corev1.BasicAuthPasswordKey)
		}
	case corev1.SecretTypeSSHAuth:
		if len(s.Data[corev1.SSHAuthPrivateKey]) == 0 {
			errs = append(errs, field.Required(dataPath.Key(corev1.SSHAuthPrivateKey), ""))
		}
	case corev1.SecretTypeTLS:
		require(corev1.TLSCertKey)
		require(corev1.TLSPrivateKeyKey)
	}
	return errs
}

// requireJSON checks that data[key] is present and holds a JSON object.
func requireJSON(data map[string][]byte, key string, dataPath *field.Path) field.ErrorList {
	v, ok := data[key]
	if !ok {
		return field.ErrorList{field.Required(dataPath.Key(key), "")}
	}
	if err := json.Unmarshal(v, &map[string]any{}); err != nil {
		return field.ErrorList{field.Invalid(dataPath.Key(key), "<secret contents redacted>", err.Error())}
	}
	return nil
}

// validateUpdate adds the fixed type and the `immutable` rules to validate.
func validateUpdate(s, old *corev1.Secret) field.ErrorList {
	errs := corevalidation.Immutable(field.NewPath("type"), s.Type, old.Type)
	errs = append(errs, corevalidation.ImmutableFlag(field.NewPath("immutable"), s.Immutable, old.Immutable)...)
	if corevalidation.IsTrue(old.Immutable) && !corevalidation.BytesMapsEqual(s.Data, old.Data) {
		errs = append(errs, field.Forbidden(field.NewPath("data"), corevalidation.ImmutableMsg))
	}
	return append(errs, validate(s)...)
}
