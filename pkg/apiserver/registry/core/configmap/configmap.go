package configmap

import (
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/registry/core/corevalidation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// Resource is the configmaps row of the registry.
func Resource() *registry.Resource {
	return &registry.Resource{
		Group: "", Version: "v1", Name: "configmaps", Singular: "configmap", Kind: "ConfigMap",
		ShortNames: []string{"cm"},
		Namespaced: true,
		New:        func() meta.Object { return &corev1.ConfigMap{} },
		Strategy: registry.Typed[corev1.ConfigMap]{
			DefaultFunc:        setDefaults,
			ValidateFunc:       validate,
			ValidateUpdateFunc: validateUpdate,
		},
	}
}

// setDefaults gives a config map an empty data map, as upstream does; it
// is not visible on the wire, where an empty map is omitted.
func setDefaults(cm *corev1.ConfigMap) {
	if cm.Data == nil {
		cm.Data = map[string]string{}
	}
}

// validate checks keys, that no key is in both maps, and the total size.
func validate(cm *corev1.ConfigMap) field.ErrorList {
	dataPath := field.NewPath("data")
	errs := corevalidation.Keys(dataPath, cm.Data)
	errs = append(errs, corevalidation.Keys(field.NewPath("binaryData"), cm.BinaryData)...)
	size := 0
	for k, v := range cm.Data {
		if _, dup := cm.BinaryData[k]; dup {
			errs = append(errs, field.Invalid(dataPath.Key(k), k, "duplicate of a key present in binaryData"))
		}
		size += len(v)
	}
	for _, v := range cm.BinaryData {
		size += len(v)
	}
	if size > corevalidation.MaxDataSize {
		// The empty path refers to the whole object, as upstream reports it.
		errs = append(errs, field.TooLong(field.NewPath(""), corevalidation.MaxDataSize))
	}
	return errs
}

// validateUpdate adds the `immutable` rules to validate.
func validateUpdate(cm, old *corev1.ConfigMap) field.ErrorList {
	errs := corevalidation.ImmutableFlag(field.NewPath("immutable"), cm.Immutable, old.Immutable)
	if corevalidation.IsTrue(old.Immutable) {
		if !corevalidation.StringMapsEqual(cm.Data, old.Data) {
			errs = append(errs, field.Forbidden(field.NewPath("data"), corevalidation.ImmutableMsg))
		}
		if !corevalidation.BytesMapsEqual(cm.BinaryData, old.BinaryData) {
			errs = append(errs, field.Forbidden(field.NewPath("binaryData"), corevalidation.ImmutableMsg))
		}
	}
	return append(errs, validate(cm)...)
}
