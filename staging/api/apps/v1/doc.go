// Package v1 holds the apps/v1 workload kinds: Deployment, ReplicaSet,
// DaemonSet, StatefulSet and ControllerRevision, with their lists. JSON names,
// protobuf field numbers and patch strategies follow upstream's apps/v1 so
// that existing manifests and clients work unchanged.
package v1

//go:generate go run ../../../hack/protogen
