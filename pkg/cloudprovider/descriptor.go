package cloudprovider

import (
	"errors"
	"fmt"

	cloud "platform.io/client/cloudprovider"

	"platform.io/platform/pkg/component/run"
	"platform.io/platform/pkg/controller"
)

// Context is what a cloud loop is built from: the daemon's dependencies,
// the cloud provider and the cluster's name. The provider's optional parts
// are known only once it has answered the handshake, which the daemon
// waits for before running any loop; New must not call the provider.
type Context struct {
	controller.Context
	Cloud       cloud.Interface
	ClusterName string
}

// Part is an optional part of the provider interface a loop needs.
type Part string

// The parts.
const (
	PartInstances     Part = "instances"
	PartLoadBalancers Part = "load balancers"
	PartRoutes        Part = "routes"
)

// ErrPartMissing: the provider does not implement a part a loop needs.
var ErrPartMissing = errors.New("the cloud provider does not implement a part this loop needs")

// ErrNotLeading: this replica's term ran out; a loop makes no change in
// the cloud, which the API server could not fence, after it.
var ErrNotLeading = errors.New("cloudprovider: not leading")

// Leading returns nil while this replica leads (always, without leader
// election), ErrNotLeading once its term has run out. Loops call it just
// before a change in the cloud.
func (c Context) Leading() error {
	if c.IsLeader != nil && !c.IsLeader() {
		return ErrNotLeading
	}
	return nil
}

// Has reports whether the handshake said the provider implements part.
func Has(info cloud.HandshakeInfo, part Part) bool {
	switch part {
	case PartInstances:
		return info.Instances
	case PartLoadBalancers:
		return info.LoadBalancers
	case PartRoutes:
		return info.Routes
	}
	return false
}

// Descriptor registers one cloud loop.
type Descriptor struct {
	// Name is the loop's name in --controllers.
	Name string
	// Needs is the part of the provider the loop cannot run without; the
	// daemon leaves the loop off, with a warning, when it is missing.
	Needs Part
	// NewOptions returns the loop's flags at their defaults; nil for none.
	NewOptions func() controller.Options
	// New builds the loop; it declares the informers it reads.
	New func(c Context, opts controller.Options) (run.Runnable, error)
}

// Register returns the Descriptor of the loop name needing part, whose
// flags are O.
func Register[O controller.Options, R run.Runnable](name string, part Part, newOptions func() O, newLoop func(Context, O) (R, error)) Descriptor {
	return Descriptor{
		Name:       name,
		Needs:      part,
		NewOptions: func() controller.Options { return newOptions() },
		New: func(c Context, opts controller.Options) (run.Runnable, error) {
			o, ok := opts.(O)
			if !ok {
				return nil, fmt.Errorf("%s: options of type %T, want %T", name, opts, *new(O))
			}
			loop, err := newLoop(c, o)
			if err != nil {
				return nil, err
			}
			return loop, nil
		},
	}
}
