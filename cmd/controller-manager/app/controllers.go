package app

import (
	"platform.io/platform/pkg/controller"
	"platform.io/platform/pkg/controller/garbagecollector"
	"platform.io/platform/pkg/controller/job"
	"platform.io/platform/pkg/controller/namespace"
	"platform.io/platform/pkg/controller/replicaset"
	"platform.io/platform/pkg/controller/serviceaccount"
	"platform.io/platform/pkg/controller/statefulset"
)

// Descriptors is the table of every control loop the controller manager
// can run.
func Descriptors() []controller.Descriptor {
	return []controller.Descriptor{
		replicaset.Descriptor(),
		statefulset.Descriptor(),
		job.Descriptor(),
		garbagecollector.Descriptor(),
		namespace.Descriptor(),
		serviceaccount.Descriptor(),
	}
}
