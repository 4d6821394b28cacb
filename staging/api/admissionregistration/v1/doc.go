// Package v1 holds admissionregistration.platform.io/v1: the
// MutatingWebhookConfiguration and ValidatingWebhookConfiguration kinds that
// register admission webhooks with the API server (which requests each
// webhook sees, how it is reached, and what happens when it fails). JSON
// names and protobuf numbers match upstream's admissionregistration v1.
//
//go:generate go run ../../../hack/protogen
package v1
