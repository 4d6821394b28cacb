// Package v1 defines apiregistration.platform.io/v1 APIService: the
// registration of a group version that the API server serves from another
// server (an aggregated API server behind a Service), proxying the
// requests of its paths there, or that it serves itself (no service).
// JSON names and protobuf numbers match upstream's apiregistration v1
// wire format.
//
//go:generate go run ../../../hack/protogen
package v1
