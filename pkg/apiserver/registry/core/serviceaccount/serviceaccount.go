package serviceaccount

import (
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// Resource is the serviceaccounts row of the registry, without the token
// subresource.
func Resource() *registry.Resource { return ResourceWith(TokenConfig{}) }

// ResourceWith is the serviceaccounts row, serving serviceaccounts/token
// when c's tokens are enabled.
func ResourceWith(c TokenConfig) *registry.Resource {
	r := &registry.Resource{
		Group: "", Version: "v1", Name: "serviceaccounts", Singular: "serviceaccount", Kind: "ServiceAccount",
		ShortNames: []string{"sa"},
		Namespaced: true,
		New:        func() meta.Object { return &corev1.ServiceAccount{} },
		Strategy: registry.Typed[corev1.ServiceAccount]{
			ValidateFunc:       validate,
			ValidateUpdateFunc: func(sa, _ *corev1.ServiceAccount) field.ErrorList { return validate(sa) },
		},
	}
	if c.Tokens.Enabled() {
		r.Actions = map[string]registry.Action{"token": issueToken(c)}
		r.ActionKinds = map[string]meta.GroupVersionKind{"token": tokenRequestKind}
	}
	return r
}

// validate requires every secret and image pull secret reference to name its target.
func validate(sa *corev1.ServiceAccount) field.ErrorList {
	var errs field.ErrorList
	p := field.NewPath("secrets")
	for i, s := range sa.Secrets {
		if s.Name == "" {
			errs = append(errs, field.Required(p.Index(i).Child("name"), ""))
		}
	}
	p = field.NewPath("imagePullSecrets")
	for i, s := range sa.ImagePullSecrets {
		if s.Name == "" {
			errs = append(errs, field.Required(p.Index(i).Child("name"), ""))
		}
	}
	return errs
}
