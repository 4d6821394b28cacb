package validatingwebhookconfiguration

import (
	arv1 "platform.io/client/api/admissionregistration/v1"
	arv1beta1 "platform.io/client/api/admissionregistration/v1beta1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	wv "platform.io/platform/pkg/apiserver/registry/admissionregistration/webhookvalidation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// Resources returns the v1 row and the v1beta1 row stored as it.
func Resources() (v1, v1beta1 *registry.Resource) {
	v1 = &registry.Resource{
		Group: arv1.GroupName, Version: "v1", Name: "validatingwebhookconfigurations",
		Singular: "validatingwebhookconfiguration", Kind: "ValidatingWebhookConfiguration",
		Categories: []string{"api-extensions"},
		Table:      tableColumns,
		New:        func() meta.Object { return &arv1.ValidatingWebhookConfiguration{} },
		Strategy: registry.Typed[arv1.ValidatingWebhookConfiguration]{
			DefaultFunc: func(c *arv1.ValidatingWebhookConfiguration) { wv.DefaultValidating(c.Webhooks, wv.V1) },
			ValidateFunc: func(c *arv1.ValidatingWebhookConfiguration) field.ErrorList {
				return wv.Validating(c.Webhooks, nil, wv.V1)
			},
			ValidateUpdateFunc: func(c, old *arv1.ValidatingWebhookConfiguration) field.ErrorList {
				return wv.Validating(c.Webhooks, old.Webhooks, wv.V1)
			},
		},
	}
	v1beta1 = &registry.Resource{
		Group: arv1beta1.GroupName, Version: "v1beta1", Name: v1.Name, Singular: v1.Singular, Kind: v1.Kind,
		Categories: v1.Categories,
		Table:      tableColumns,
		New:        func() meta.Object { return &arv1beta1.ValidatingWebhookConfiguration{} },
		Storage:    v1,
		Strategy: registry.Typed[arv1beta1.ValidatingWebhookConfiguration]{
			DefaultFunc: func(c *arv1beta1.ValidatingWebhookConfiguration) { wv.DefaultValidating(c.Webhooks, wv.V1beta1) },
			ValidateFunc: func(c *arv1beta1.ValidatingWebhookConfiguration) field.ErrorList {
				return wv.Validating(c.Webhooks, nil, wv.V1beta1)
			},
			ValidateUpdateFunc: func(c, old *arv1beta1.ValidatingWebhookConfiguration) field.ErrorList {
				return wv.Validating(c.Webhooks, old.Webhooks, wv.V1beta1)
			},
		},
	}
	return v1, v1beta1
}
