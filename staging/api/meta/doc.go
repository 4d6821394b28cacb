// Package meta holds the metadata every API object shares: TypeMeta and
// ObjectMeta on objects, ListMeta on lists, and the meta.platform.io/v1 kinds
// the server speaks about itself (Status, DeleteOptions, WatchEvent and the
// discovery documents). JSON names and protobuf field numbers match upstream's
// published definitions, so stock clients read them unchanged.
package meta

//go:generate go run ../../hack/protogen
