// Package v1 holds authorization.platform.io/v1: SubjectAccessReview, the
// virtual kind a component posts to ask the API server whether a user may
// do something. It is never stored; the answer comes back in status.
//
//go:generate go run ../../../hack/protogen
package v1
