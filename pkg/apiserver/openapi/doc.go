// Package openapi builds the server's OpenAPI documents from the registry
// rows and the Go API types: one swagger 2.0 document served at /openapi/v2
// (JSON or gnostic protobuf) and one OpenAPI 3.0 document per group version
// under /openapi/v3, which kubectl reads for explain, apply and validation.
package openapi

//go:generate go run ../../../hack/openapi-docs
