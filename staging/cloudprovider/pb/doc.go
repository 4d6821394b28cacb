// Package pb is the generated Go code of the cloud provider plugin
// protocol, cloudprovider.proto. Regenerate it with go generate, which
// needs protoc on PATH (Debian package protobuf-compiler); the Go plugins
// are pinned as tools in staging/go.mod.
package pb

//go:generate sh ../../hack/grpcgen.sh cloudprovider.proto
