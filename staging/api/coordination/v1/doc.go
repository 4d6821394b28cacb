// Package v1 defines the coordination.platform.io/v1 Lease, a small object
// that components renew to hold leader election or report heartbeats. JSON
// names and protobuf numbers match the upstream coordination v1 wire format.
package v1

//go:generate go run ../../../hack/protogen
