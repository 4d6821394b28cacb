// Package v1 holds the core ("") group's v1 API types: the kinds served under
// /api/v1 such as Pod, Node, Service, Endpoints, ConfigMap, Secret, Event,
// ServiceAccount and Namespace, together with the shared building blocks
// (PodTemplateSpec, ObjectReference, ResourceList, ...) that other groups
// embed. JSON names, protobuf field numbers and patch tags match upstream;
// where an upstream protobuf tag leaves out the "opt" label, it is written out.
package v1

//go:generate go run ../../../hack/protogen
