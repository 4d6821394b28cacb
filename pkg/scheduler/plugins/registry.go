package plugins

import (
	"platform.io/platform/pkg/scheduler/framework"
	"platform.io/platform/pkg/scheduler/plugins/defaultbinder"
	"platform.io/platform/pkg/scheduler/plugins/defaultpreemption"
	"platform.io/platform/pkg/scheduler/plugins/imagelocality"
	"platform.io/platform/pkg/scheduler/plugins/interpodaffinity"
	"platform.io/platform/pkg/scheduler/plugins/nodeaffinity"
	"platform.io/platform/pkg/scheduler/plugins/nodeconditions"
	"platform.io/platform/pkg/scheduler/plugins/nodename"
	"platform.io/platform/pkg/scheduler/plugins/nodeports"
	"platform.io/platform/pkg/scheduler/plugins/noderesources"
	"platform.io/platform/pkg/scheduler/plugins/nodeunschedulable"
	"platform.io/platform/pkg/scheduler/plugins/podtopologyspread"
	"platform.io/platform/pkg/scheduler/plugins/queuesort"
	"platform.io/platform/pkg/scheduler/plugins/selectorspread"
	"platform.io/platform/pkg/scheduler/plugins/tainttoleration"
)

// NewRegistry returns every in-tree plugin's factory by its name.
func NewRegistry() map[string]framework.Factory {
	return map[string]framework.Factory{
		queuesort.Name:                       queuesort.New,
		defaultbinder.Name:                   defaultbinder.New,
		nodename.Name:                        nodename.New,
		nodeunschedulable.Name:               nodeunschedulable.New,
		nodeports.Name:                       nodeports.New,
		noderesources.FitName:                noderesources.NewFit,
		noderesources.BalancedAllocationName: noderesources.NewBalancedAllocation,
		nodeaffinity.Name:                    nodeaffinity.New,
		tainttoleration.Name:                 tainttoleration.New,
		nodeconditions.Name:                  nodeconditions.New,
		interpodaffinity.Name:                interpodaffinity.New,
		podtopologyspread.Name:               podtopologyspread.New,
		imagelocality.Name:                   imagelocality.New,
		selectorspread.Name:                  selectorspread.New,
		defaultpreemption.Name:               defaultpreemption.New,
	}
}
