// Package v1beta1 holds admissionregistration.platform.io/v1beta1, the
// pre-GA form of the webhook configurations that older manifests use. Its
// webhooks have the v1 fields (the package reuses the v1 types) but v1beta1's
// defaults and rules: sideEffects may also be Some or Unknown (the default),
// failurePolicy defaults to Ignore, matchPolicy to Exact and
// admissionReviewVersions to [v1beta1]. Objects are stored as v1.
//
//go:generate go run ../../../hack/protogen
package v1beta1
