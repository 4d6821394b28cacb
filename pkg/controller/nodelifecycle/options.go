package nodelifecycle

import (
	"fmt"
	"time"

	"github.com/spf13/pflag"
)

// Options are the loop's flags.
type Options struct {
	NodeMonitorPeriod         time.Duration
	NodeMonitorGracePeriod    time.Duration
	NodeStartupGracePeriod    time.Duration
	PodEvictionTimeout        time.Duration
	NodeEvictionRate          float64
	SecondaryNodeEvictionRate float64
	UnhealthyZoneThreshold    float64
	LargeClusterSizeThreshold int
}

// NewOptions returns upstream's defaults.
func NewOptions() *Options {
	return &Options{
		NodeMonitorPeriod:         5 * time.Second,
		NodeMonitorGracePeriod:    40 * time.Second,
		NodeStartupGracePeriod:    time.Minute,
		PodEvictionTimeout:        5 * time.Minute,
		NodeEvictionRate:          0.1,
		SecondaryNodeEvictionRate: 0.01,
		UnhealthyZoneThreshold:    0.55,
		LargeClusterSizeThreshold: 50,
	}
}

// AddFlags registers the loop's flags.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	fs.DurationVar(&o.NodeMonitorPeriod, "node-monitor-period", o.NodeMonitorPeriod, "The period for syncing NodeStatus in the node lifecycle loop.")
	fs.DurationVar(&o.NodeMonitorGracePeriod, "node-monitor-grace-period", o.NodeMonitorGracePeriod, "Amount of time a running node may be unresponsive before it is marked unhealthy.")
	fs.DurationVar(&o.NodeStartupGracePeriod, "node-startup-grace-period", o.NodeStartupGracePeriod, "Amount of time a starting node may be unresponsive before it is marked unhealthy.")
	fs.DurationVar(&o.PodEvictionTimeout, "pod-eviction-timeout", o.PodEvictionTimeout, "The grace period for deleting pods on failed nodes, for pods that have no toleration of the not-ready or unreachable taint.")
	fs.Float64Var(&o.NodeEvictionRate, "node-eviction-rate", o.NodeEvictionRate, "Number of nodes per second on which pods are evicted when a zone is healthy.")
	fs.Float64Var(&o.SecondaryNodeEvictionRate, "secondary-node-eviction-rate", o.SecondaryNodeEvictionRate, "Number of nodes per second on which pods are evicted when a zone is unhealthy; 0 in zones no larger than --large-cluster-size-threshold.")
	fs.Float64Var(&o.UnhealthyZoneThreshold, "unhealthy-zone-threshold", o.UnhealthyZoneThreshold, "Fraction of not-ready nodes (at least 3) in a zone for it to be treated as unhealthy.")
	fs.IntVar(&o.LargeClusterSizeThreshold, "large-cluster-size-threshold", o.LargeClusterSizeThreshold, "Number of nodes above which a zone is large: an unhealthy large zone evicts at the secondary rate, a small one not at all.")
}

// Validate checks the flags, naming the flag of each error.
func (o *Options) Validate() []error {
	var errs []error
	for _, d := range []struct {
		flag string
		v    time.Duration
	}{
		{"--node-monitor-period", o.NodeMonitorPeriod},
		{"--node-monitor-grace-period", o.NodeMonitorGracePeriod},
		{"--node-startup-grace-period", o.NodeStartupGracePeriod},
	} {
		if d.v <= 0 {
			errs = append(errs, fmt.Errorf("%s: %v must be positive", d.flag, d.v))
		}
	}
	if o.PodEvictionTimeout < 0 {
		errs = append(errs, fmt.Errorf("--pod-eviction-timeout: %v must not be negative", o.PodEvictionTimeout))
	}
	if o.NodeEvictionRate < 0 {
		errs = append(errs, fmt.Errorf("--node-eviction-rate: %v must not be negative", o.NodeEvictionRate))
	}
	if o.SecondaryNodeEvictionRate < 0 {
		errs = append(errs, fmt.Errorf("--secondary-node-eviction-rate: %v must not be negative", o.SecondaryNodeEvictionRate))
	}
	if o.UnhealthyZoneThreshold <= 0 || o.UnhealthyZoneThreshold > 1 {
		errs = append(errs, fmt.Errorf("--unhealthy-zone-threshold: %v must be in (0, 1]", o.UnhealthyZoneThreshold))
	}
	if o.LargeClusterSizeThreshold < 0 {
		errs = append(errs, fmt.Errorf("--large-cluster-size-threshold: %d must not be negative", o.LargeClusterSizeThreshold))
	}
	return errs
}
