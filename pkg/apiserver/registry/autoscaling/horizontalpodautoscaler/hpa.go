package horizontalpodautoscaler

import (
	"context"

	autoscalingv1 "platform.io/client/api/autoscaling/v1"
	autoscalingv2 "platform.io/client/api/autoscaling/v2"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// Resources returns the horizontalpodautoscalers rows: autoscaling/v2, the
// storage version, and autoscaling/v1, stored as v2.
func Resources() (v2, v1 *registry.Resource) {
	v2 = &registry.Resource{
		Group: autoscalingv2.GroupName, Version: "v2", Name: "horizontalpodautoscalers",
		Singular: "horizontalpodautoscaler", Kind: "HorizontalPodAutoscaler",
		ShortNames: []string{"hpa"},
		Categories: []string{"all"},
		Namespaced: true,
		New:        func() meta.Object { return &autoscalingv2.HorizontalPodAutoscaler{} },
		HasStatus:  true,
		Strategy: registry.Typed[autoscalingv2.HorizontalPodAutoscaler]{
			DefaultFunc:        func(h *autoscalingv2.HorizontalPodAutoscaler) { Default(&h.Spec) },
			ValidateFunc:       func(h *autoscalingv2.HorizontalPodAutoscaler) field.ErrorList { return ValidateSpec(&h.Spec) },
			ValidateUpdateFunc: func(h, _ *autoscalingv2.HorizontalPodAutoscaler) field.ErrorList { return ValidateSpec(&h.Spec) },
		},
		Table: tableColumns,
	}
	v1 = &registry.Resource{
		Group: autoscalingv1.GroupName, Version: "v1", Name: "horizontalpodautoscalers",
		Singular: "horizontalpodautoscaler", Kind: "HorizontalPodAutoscaler",
		ShortNames: []string{"hpa"},
		Categories: []string{"all"},
		Namespaced: true,
		New:        func() meta.Object { return &autoscalingv1.HorizontalPodAutoscaler{} },
		HasStatus:  true,
		Storage:    v2,
		Convert: &registry.Conversion{
			ToStorage: func(_ context.Context, obj meta.Object) (meta.Object, error) {
				return ToV2(obj.(*autoscalingv1.HorizontalPodAutoscaler))
			},
			FromStorage: func(_ context.Context, obj meta.Object) (meta.Object, error) {
				return FromV2(obj.(*autoscalingv2.HorizontalPodAutoscaler))
			},
		},
		Strategy: registry.Typed[autoscalingv1.HorizontalPodAutoscaler]{
			DefaultFunc: defaultV1,
			ValidateFunc: func(h *autoscalingv1.HorizontalPodAutoscaler) field.ErrorList {
				return validateV1(h)
			},
			ValidateUpdateFunc: func(h, _ *autoscalingv1.HorizontalPodAutoscaler) field.ErrorList {
				return validateV1(h)
			},
		},
		Table: tableColumns,
	}
	return v2, v1
}

// defaultV1 defaults a v1 object by way of its v2 form, so both versions
// get the same defaults.
func defaultV1(h *autoscalingv1.HorizontalPodAutoscaler) {
	v2, err := ToV2(h)
	if err != nil {
		// Unreadable annotations are reported by validation.
		return
	}
	Default(&v2.Spec)
	back, err := FromV2(v2)
	if err != nil {
		return
	}
	h.Annotations, h.Spec = back.Annotations, back.Spec
}

func validateV1(h *autoscalingv1.HorizontalPodAutoscaler) field.ErrorList {
	v2, err := ToV2(h)
	if err != nil {
		return field.ErrorList{field.Invalid(field.NewPath("metadata", "annotations"), "", err.Error())}
	}
	return ValidateSpec(&v2.Spec)
}
