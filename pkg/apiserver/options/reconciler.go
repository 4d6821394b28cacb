package options

import (
	"fmt"
	"time"

	"github.com/spf13/pflag"
)

// The endpoint reconciler types.
const (
	// ReconcilerLease keeps a record per API server in etcd with a TTL and
	// lists the live ones in the platform Endpoints.
	ReconcilerLease = "lease"
	// ReconcilerNone leaves the platform Endpoints alone.
	ReconcilerNone = "none"
)

// EndpointReconciler configures how the API server keeps its address in the
// Endpoints of the platform Service.
type EndpointReconciler struct {
	// Type is ReconcilerLease or ReconcilerNone.
	Type string
	// LeaseTTL is how long a server's record outlives its last renewal.
	LeaseTTL time.Duration
}

// NewEndpointReconciler returns the defaults.
func NewEndpointReconciler() *EndpointReconciler {
	return &EndpointReconciler{Type: ReconcilerLease, LeaseTTL: 15 * time.Second}
}

// AddFlags registers the reconciler flags.
func (o *EndpointReconciler) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.Type, "endpoint-reconciler-type", o.Type, "Use an endpoint reconciler (lease, none). lease keeps a record of each API server's --advertise-address in etcd and lists the live ones in the Endpoints of the platform Service; none leaves those Endpoints alone.")
	fs.DurationVar(&o.LeaseTTL, "endpoint-reconciler-lease-ttl", o.LeaseTTL, "How long an API server's record outlives its last renewal when it stops renewing it (for example when it is killed); records are renewed every two thirds of it. Whole seconds, at least 1s.")
}

// Validate checks the reconciler options.
func (o *EndpointReconciler) Validate() []error {
	var errs []error
	if o.Type != ReconcilerLease && o.Type != ReconcilerNone {
		errs = append(errs, fmt.Errorf("--endpoint-reconciler-type: %q is not lease or none", o.Type))
	}
	if o.LeaseTTL < time.Second || o.LeaseTTL%time.Second != 0 {
		errs = append(errs, fmt.Errorf("--endpoint-reconciler-lease-ttl: %v must be a whole number of seconds, at least 1s", o.LeaseTTL))
	}
	return errs
}
