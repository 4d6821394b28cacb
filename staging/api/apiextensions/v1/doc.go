// Package v1 defines apiextensions.platform.io/v1 CustomResourceDefinition:
// a custom resource type (group, names, scope, versions with their
// schemas, subresources and printer columns) that the API server serves
// beside the built-in ones. JSON names and protobuf numbers match
// upstream's apiextensions.k8s.io/v1 wire format.
//
//go:generate go run ../../../hack/protogen
package v1
