// Package v1beta1 holds admission.platform.io/v1beta1 AdmissionReview, the
// form older webhooks ask for in admissionReviewVersions. Its request and
// response have the v1 fields (the package reuses the v1 types); only the
// apiVersion differs on the wire.
//
//go:generate go run ../../../hack/protogen
package v1beta1
