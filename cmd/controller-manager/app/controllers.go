package app

import (
	"platform.io/platform/pkg/controller"
)

// Descriptors is the table of every control loop the controller manager
// can run, in start order.
func Descriptors() []controller.Descriptor {
	return []controller.Descriptor{}
}
