package app

import (
	"errors"
	"fmt"
	"net"

	"github.com/spf13/pflag"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/component/cli"
	"platform.io/platform/pkg/component/daemon"
	"platform.io/platform/pkg/component/options"
	"platform.io/platform/pkg/scheduler/config"
	"platform.io/platform/pkg/scheduler/plugins"
)

// Defaults of the scheduler's own flags.
const (
	DefaultInsecurePort                   = 10251
	DefaultHardPodAffinitySymmetricWeight = 1
)

// Options are the scheduler's own options; the shared ones (serving,
// authentication, leader election, client) come from the daemon runner.
type Options struct {
	// Config is --config, the configuration file.
	Config string
	// SchedulerName names the default profile when the file sets none.
	SchedulerName                  string
	HardPodAffinitySymmetricWeight int32
	// Port and Address are the deprecated insecure endpoint (0 disables).
	Port    int
	Address string
	// file is the configuration the file held, nil without --config.
	file *config.Configuration
}

var _ daemon.FileOptions = (*Options)(nil)

// NewOptions returns the defaults.
func NewOptions() *Options {
	return &Options{SchedulerName: corev1.DefaultSchedulerName, Address: "0.0.0.0",
		HardPodAffinitySymmetricWeight: DefaultHardPodAffinitySymmetricWeight, Port: DefaultInsecurePort}
}

// Groups returns the scheduler's flag groups.
func (o *Options) Groups() []cli.NamedFlagSet {
	return []cli.NamedFlagSet{
		cli.Group("Scheduler", o.addFlags),
		cli.Group("Insecure serving (deprecated)", o.addInsecureFlags),
	}
}

func (o *Options) addFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.Config, "config", o.Config, "Path to a "+config.Kind+" file ("+config.APIVersion+", YAML or JSON): profiles, plugins and weights, percentageOfNodesToScore, backoff, leader election, client connection. Flags given on the command line override it.")
	fs.StringVar(&o.SchedulerName, "scheduler-name", o.SchedulerName, "Name of the default profile: the scheduler schedules pods whose spec.schedulerName is this. Ignored when --config sets profiles.")
	fs.Int32Var(&o.HardPodAffinitySymmetricWeight, "hard-pod-affinity-symmetric-weight", o.HardPodAffinitySymmetricWeight, "Score weight (0 to 100) given to nodes for an existing pod's required affinity term that the incoming pod matches.")
	deprecate(fs, "hard-pod-affinity-symmetric-weight", "set InterPodAffinity's hardPodAffinityWeight in the --config file instead")
}

func (o *Options) addInsecureFlags(fs *pflag.FlagSet) {
	fs.IntVar(&o.Port, "port", o.Port, "Port of the insecure HTTP endpoint, which serves only /healthz and /metrics without authentication; 0 disables it.")
	fs.StringVar(&o.Address, "address", o.Address, "IP address the insecure endpoint listens on (0.0.0.0 for all interfaces).")
	deprecate(fs, "port", "use --secure-port; the insecure endpoint will be removed")
	deprecate(fs, "address", "use --bind-address")
}

// deprecate warns when the flag is used but, unlike pflag's default, keeps
// it in --help (pflag marks its usage DEPRECATED).
func deprecate(fs *pflag.FlagSet, name, msg string) {
	_ = fs.MarkDeprecated(name, msg)
	fs.Lookup(name).Hidden = false
}

// Validate checks the scheduler's own flags.
func (o *Options) Validate() []error {
	var errs []error
	if w := o.HardPodAffinitySymmetricWeight; w < 0 || w > 100 {
		errs = append(errs, fmt.Errorf("--hard-pod-affinity-symmetric-weight: %d is not in the range 0 to 100", w))
	}
	if o.Port < 0 || o.Port > 65535 {
		errs = append(errs, fmt.Errorf("--port: %d is not in the range 0 to 65535", o.Port))
	}
	if net.ParseIP(o.Address) == nil {
		errs = append(errs, fmt.Errorf("--address: %q is not an IP address", o.Address))
	}
	if o.SchedulerName == "" {
		errs = append(errs, errors.New("--scheduler-name: required"))
	}
	return errs
}

// ConfigFile returns --config.
func (o *Options) ConfigFile() string { return o.Config }

// LoadFile reads and validates the configuration file and fills the
// shared leader-election and client options from it.
func (o *Options) LoadFile(path string, shared *options.Options) error {
	c, err := config.Load(path)
	if err != nil {
		return err
	}
	reg := plugins.NewRegistry()
	if errs := config.Validate(c, func(name string) bool { _, ok := reg[name]; return ok }); len(errs) > 0 {
		return errors.Join(errs...)
	}
	if le := c.LeaderElection; le != nil {
		applyLeaderElection(le, shared.LeaderElection)
	}
	if cc := c.ClientConnection; cc != nil {
		g := shared.Generic
		if cc.Kubeconfig != "" {
			g.Kubeconfig = cc.Kubeconfig
		}
		if cc.QPS != nil {
			g.QPS = *cc.QPS
		}
		if cc.Burst != nil {
			g.Burst = int(*cc.Burst)
		}
		if cc.ContentType != "" {
			g.ContentType = cc.ContentType
		}
	}
	o.file = c
	return nil
}

func applyLeaderElection(le *config.LeaderElection, o *options.LeaderElection) {
	if le.LeaderElect != nil {
		o.LeaderElect = *le.LeaderElect
	}
	if le.LeaseDuration != nil {
		o.LeaseDuration = le.LeaseDuration.Duration
	}
	if le.RenewDeadline != nil {
		o.RenewDeadline = le.RenewDeadline.Duration
	}
	if le.RetryPeriod != nil {
		o.RetryPeriod = le.RetryPeriod.Duration
	}
	if le.ResourceLock != "" {
		o.ResourceLock = le.ResourceLock
	}
	if le.ResourceName != "" {
		o.ResourceName = le.ResourceName
	}
	if le.ResourceNamespace != "" {
		o.ResourceNamespace = le.ResourceNamespace
	}
}

// Configuration returns the effective configuration: the file's (or an
// empty one) with defaults, the default profile named --scheduler-name
// when the file sets no profiles.
func (o *Options) Configuration() *config.Configuration {
	c := &config.Configuration{}
	if o.file != nil {
		cp := *o.file
		cp.Profiles = append([]config.Profile(nil), o.file.Profiles...)
		c = &cp
	}
	config.SetDefaults(c, o.SchedulerName)
	return c
}

// SetConfiguration sets the configuration as if read from a file (for
// tests and embedding); it is validated against the registry.
func (o *Options) SetConfiguration(c *config.Configuration) error {
	reg := plugins.NewRegistry()
	if errs := config.Validate(c, func(name string) bool { _, ok := reg[name]; return ok }); len(errs) > 0 {
		return errors.Join(errs...)
	}
	o.file = c
	return nil
}
