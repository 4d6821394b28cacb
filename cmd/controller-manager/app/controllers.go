package app

import (
	"platform.io/platform/pkg/controller"
	"platform.io/platform/pkg/controller/cronjob"
	"platform.io/platform/pkg/controller/daemonset"
	"platform.io/platform/pkg/controller/deployment"
	"platform.io/platform/pkg/controller/endpoints"
	"platform.io/platform/pkg/controller/garbagecollector"
	"platform.io/platform/pkg/controller/job"
	"platform.io/platform/pkg/controller/namespace"
	"platform.io/platform/pkg/controller/nodeipam"
	"platform.io/platform/pkg/controller/nodelifecycle"
	"platform.io/platform/pkg/controller/podgc"
	"platform.io/platform/pkg/controller/replicaset"
	"platform.io/platform/pkg/controller/rootcacertpublisher"
	"platform.io/platform/pkg/controller/serviceaccount"
	"platform.io/platform/pkg/controller/statefulset"
	"platform.io/platform/pkg/controller/ttlafterfinished"
)

// Descriptors is the table of every control loop the controller manager
// can run.
func Descriptors() []controller.Descriptor {
	return []controller.Descriptor{
		deployment.Descriptor(),
		replicaset.Descriptor(),
		statefulset.Descriptor(),
		daemonset.Descriptor(),
		job.Descriptor(),
		cronjob.Descriptor(),
		ttlafterfinished.Descriptor(),
		endpoints.Descriptor(),
		garbagecollector.Descriptor(),
		namespace.Descriptor(),
		serviceaccount.Descriptor(),
		rootcacertpublisher.Descriptor(),
		nodeipam.Descriptor(),
		nodelifecycle.Descriptor(),
		podgc.Descriptor(),
	}
}
