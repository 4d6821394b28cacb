package app

import (
	"platform.io/platform/pkg/cloudprovider"
	"platform.io/platform/pkg/cloudprovider/cloudnode"
	"platform.io/platform/pkg/cloudprovider/nodelifecycle"
	"platform.io/platform/pkg/cloudprovider/route"
	"platform.io/platform/pkg/cloudprovider/service"
)

// Descriptors is the table of every loop the cloud controller manager can
// run.
func Descriptors() []cloudprovider.Descriptor {
	return []cloudprovider.Descriptor{
		cloudnode.Descriptor(),
		nodelifecycle.Descriptor(),
		route.Descriptor(),
		service.Descriptor(),
	}
}
