package podautoscaler

import (
	"fmt"
	"time"

	"github.com/spf13/pflag"

	"platform.io/platform/pkg/controller"
)

// Options are the loop's flags, upstream's names and defaults.
type Options struct {
	controller.Syncs
	// SyncPeriod is how often each autoscaler is evaluated.
	SyncPeriod time.Duration
	// Tolerance is the usage ratio band around 1.0 that causes no change.
	Tolerance float64
	// DownscaleStabilization is the scale-down window of autoscalers whose
	// behavior sets none.
	DownscaleStabilization time.Duration
	// CPUInitializationPeriod is how long after a pod starts its CPU
	// samples may be skipped.
	CPUInitializationPeriod time.Duration
	// InitialReadinessDelay is how long after a pod starts a readiness
	// change is taken as its first.
	InitialReadinessDelay time.Duration
}

// NewOptions returns the flags at upstream's defaults.
func NewOptions() *Options {
	return &Options{
		Syncs: controller.NewSyncs("concurrent-horizontal-pod-autoscaler-syncs", 5,
			"How many autoscalers are evaluated at once."),
		SyncPeriod:              15 * time.Second,
		Tolerance:               0.1,
		DownscaleStabilization:  5 * time.Minute,
		CPUInitializationPeriod: 5 * time.Minute,
		InitialReadinessDelay:   30 * time.Second,
	}
}

// AddFlags registers the flags on fs.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	o.Syncs.AddFlags(fs)
	fs.DurationVar(&o.SyncPeriod, "horizontal-pod-autoscaler-sync-period", o.SyncPeriod,
		"How often each autoscaler reads its metrics and sets its target's replica count.")
	fs.Float64Var(&o.Tolerance, "horizontal-pod-autoscaler-tolerance", o.Tolerance,
		"How far the ratio of current to target usage must be from 1.0 before the autoscaler changes the replica count.")
	fs.DurationVar(&o.DownscaleStabilization, "horizontal-pod-autoscaler-downscale-stabilization", o.DownscaleStabilization,
		"The scale-down stabilization window of autoscalers whose behavior sets none: a scale-down goes no lower than the highest recommendation of this period.")
	fs.DurationVar(&o.CPUInitializationPeriod, "horizontal-pod-autoscaler-cpu-initialization-period", o.CPUInitializationPeriod,
		"How long after a pod starts its CPU samples are skipped while it is not ready or the sample predates its readiness.")
	fs.DurationVar(&o.InitialReadinessDelay, "horizontal-pod-autoscaler-initial-readiness-delay", o.InitialReadinessDelay,
		"How long after a pod starts a not-ready pod is taken as still starting (its CPU sample is skipped) rather than as failing.")
}

// Validate reports values the loop cannot run with.
func (o *Options) Validate() []error {
	errs := o.Syncs.Validate()
	if o.SyncPeriod <= 0 {
		errs = append(errs, fmt.Errorf("--horizontal-pod-autoscaler-sync-period must be positive, got %s", o.SyncPeriod))
	}
	if o.Tolerance < 0 {
		errs = append(errs, fmt.Errorf("--horizontal-pod-autoscaler-tolerance must not be negative, got %g", o.Tolerance))
	}
	for _, d := range []struct {
		flag string
		v    time.Duration
	}{
		{"horizontal-pod-autoscaler-downscale-stabilization", o.DownscaleStabilization},
		{"horizontal-pod-autoscaler-cpu-initialization-period", o.CPUInitializationPeriod},
		{"horizontal-pod-autoscaler-initial-readiness-delay", o.InitialReadinessDelay},
	} {
		if d.v < 0 {
			errs = append(errs, fmt.Errorf("--%s must not be negative, got %s", d.flag, d.v))
		}
	}
	return errs
}
