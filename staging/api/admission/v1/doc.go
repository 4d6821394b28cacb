// Package v1 holds admission.platform.io/v1 AdmissionReview, the message
// the API server posts to an admission webhook (the request: who writes
// what, the object before and after, dry-run and options) and the webhook
// answers (allowed or the refusal's Status, a JSON Patch, warnings). JSON
// names and protobuf numbers match upstream's admission v1.
//
//go:generate go run ../../../hack/protogen
package v1
