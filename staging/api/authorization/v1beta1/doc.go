// Package v1beta1 holds authorization.platform.io/v1beta1
// SubjectAccessReview, the older version of the access check: the same as
// v1 but for the spec's group list, which is "group" on the wire. It is the
// default version of the authorization webhook. Nothing here is stored.
//
//go:generate go run ../../../hack/protogen
package v1beta1
