// Package v1 holds authentication.platform.io/v1: TokenReview, the virtual
// kind a component posts to ask the API server who a bearer token belongs
// to, and TokenRequest, the body and answer of a service account's token
// subresource. Neither is stored; the answer comes back in status.
//
//go:generate go run ../../../hack/protogen
package v1
