// Package v1beta1 holds authentication.platform.io/v1beta1: TokenReview and
// SelfSubjectReview in their older version, the same shapes as v1, served
// for webhooks and clients that still speak it. Nothing here is stored.
//
//go:generate go run ../../../hack/protogen
package v1beta1
