package options

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// ResourceLocks are the lock kinds --leader-elect-resource-lock accepts;
// the two-object kinds hold both locks, for migrating to leases.
func ResourceLocks() []string {
	return []string{"leases", "endpoints", "configmaps", "endpointsleases", "configmapsleases"}
}

// LeaderElection configures leader election. The daemon hands the fields
// to its elector.
type LeaderElection struct {
	LeaderElect       bool
	LeaseDuration     time.Duration
	RenewDeadline     time.Duration
	RetryPeriod       time.Duration
	ResourceLock      string
	ResourceName      string
	ResourceNamespace string
}

// NewLeaderElection returns the defaults.
func NewLeaderElection(d Defaults) *LeaderElection {
	return &LeaderElection{
		LeaderElect:       !d.NoLeaderElection,
		LeaseDuration:     15 * time.Second,
		RenewDeadline:     10 * time.Second,
		RetryPeriod:       2 * time.Second,
		ResourceLock:      "endpointsleases",
		ResourceName:      d.LeaseName,
		ResourceNamespace: "platform-system",
	}
}

// AddFlags registers the leader-election flags.
func (o *LeaderElection) AddFlags(fs *pflag.FlagSet) {
	fs.BoolVar(&o.LeaderElect, "leader-elect", o.LeaderElect, "Elect a leader among the replicas and run the main loop only in it. Enable for replicated, highly available deployments.")
	fs.DurationVar(&o.LeaseDuration, "leader-elect-lease-duration", o.LeaseDuration, "How long a candidate that is not the leader waits after the last renewal before taking the lock: the longest time a failed leader goes unreplaced.")
	fs.DurationVar(&o.RenewDeadline, "leader-elect-renew-deadline", o.RenewDeadline, "How long the leader keeps trying to renew before it stops leading. Must be less than the lease duration.")
	fs.DurationVar(&o.RetryPeriod, "leader-elect-retry-period", o.RetryPeriod, "How long candidates wait between attempts to take or renew the lock.")
	fs.StringVar(&o.ResourceLock, "leader-elect-resource-lock", o.ResourceLock, "Kind of object holding the lock: "+strings.Join(ResourceLocks(), ", ")+".")
	fs.StringVar(&o.ResourceName, "leader-elect-resource-name", o.ResourceName, "Name of the lock object.")
	fs.StringVar(&o.ResourceNamespace, "leader-elect-resource-namespace", o.ResourceNamespace, "Namespace of the lock object.")
}

// Validate checks the leader-election options; with --leader-elect=false
// there is nothing to check.
func (o *LeaderElection) Validate() []error {
	if !o.LeaderElect {
		return nil
	}
	var errs []error
	for _, d := range []struct {
		flag string
		v    time.Duration
	}{
		{"--leader-elect-lease-duration", o.LeaseDuration},
		{"--leader-elect-renew-deadline", o.RenewDeadline},
		{"--leader-elect-retry-period", o.RetryPeriod},
	} {
		if d.v <= 0 {
			errs = append(errs, fmt.Errorf("%s: %s must be positive", d.flag, d.v))
		}
	}
	if o.LeaseDuration <= o.RenewDeadline {
		errs = append(errs, fmt.Errorf("--leader-elect-lease-duration: %s must be greater than --leader-elect-renew-deadline %s", o.LeaseDuration, o.RenewDeadline))
	}
	if o.RenewDeadline <= o.RetryPeriod {
		errs = append(errs, fmt.Errorf("--leader-elect-renew-deadline: %s must be greater than --leader-elect-retry-period %s", o.RenewDeadline, o.RetryPeriod))
	}
	if !slices.Contains(ResourceLocks(), o.ResourceLock) {
		errs = append(errs, fmt.Errorf("--leader-elect-resource-lock: %q is not one of %s", o.ResourceLock, strings.Join(ResourceLocks(), ", ")))
	}
	if o.ResourceName == "" {
		errs = append(errs, fmt.Errorf("--leader-elect-resource-name: required"))
	}
	if o.ResourceNamespace == "" {
		errs = append(errs, fmt.Errorf("--leader-elect-resource-namespace: required"))
	}
	return errs
}
