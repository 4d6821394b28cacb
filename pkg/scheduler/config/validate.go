package config

import "fmt"

// MaxWeight is the largest score plugin weight the file may set.
const MaxWeight = 100

// Validate returns every invalid field of c, each naming its path in the
// file. known reports whether a plugin name is registered. It checks the
// file as written: call it before SetDefaults.
func Validate(c *Configuration, known func(string) bool) []error {
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%w: %s: %s", ErrInvalid, field, fmt.Sprintf(format, args...)))
	}
	if c.Parallelism != nil && *c.Parallelism <= 0 {
		bad("parallelism", "%d must be greater than 0", *c.Parallelism)
	}
	if p := c.PercentageOfNodesToScore; p != nil && (*p < 0 || *p > 100) {
		bad("percentageOfNodesToScore", "%d is not in the range 0 to 100", *p)
	}
	if b := c.PodInitialBackoffSeconds; b != nil && *b <= 0 {
		bad("podInitialBackoffSeconds", "%d must be greater than 0", *b)
	}
	if b := c.PodMaxBackoffSeconds; b != nil {
		initial := DefaultPodInitialBackoffSeconds
		if c.PodInitialBackoffSeconds != nil {
			initial = *c.PodInitialBackoffSeconds
		}
		if *b < initial {
			bad("podMaxBackoffSeconds", "%d must be at least podInitialBackoffSeconds (%d)", *b, initial)
		}
	}
	if le := c.LeaderElection; le != nil {
		for _, d := range []struct {
			name string
			v    *Duration
		}{{"leaseDuration", le.LeaseDuration}, {"renewDeadline", le.RenewDeadline}, {"retryPeriod", le.RetryPeriod}} {
			if d.v != nil && d.v.Duration <= 0 {
				bad("leaderElection."+d.name, "%s must be positive", d.v.Duration)
			}
		}
	}
	if cc := c.ClientConnection; cc != nil {
		if cc.QPS != nil && *cc.QPS < 0 {
			bad("clientConnection.qps", "%g must not be negative", *cc.QPS)
		}
		if cc.Burst != nil && *cc.Burst < 0 {
			bad("clientConnection.burst", "%d must not be negative", *cc.Burst)
		}
	}
	names := map[string]int{}
	for i := range c.Profiles {
		p := &c.Profiles[i]
		field := fmt.Sprintf("profiles[%d]", i)
		if p.SchedulerName == "" {
			bad(field+".schedulerName", "required")
		} else if j, dup := names[p.SchedulerName]; dup {
			bad(field+".schedulerName", "%q duplicates profiles[%d].schedulerName", p.SchedulerName, j)
		} else {
			names[p.SchedulerName] = i
		}
		errs = append(errs, validateProfile(field, p, known)...)
	}
	return errs
}

func validateProfile(field string, p *Profile, known func(string) bool) []error {
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%w: %s: %s", ErrInvalid, field, fmt.Sprintf(format, args...)))
	}
	if p.Plugins != nil {
		for _, ns := range p.Plugins.Points() {
			for j, pl := range ns.Set.Enabled {
				f := fmt.Sprintf("%s.plugins.%s.enabled[%d]", field, ns.Name, j)
				if !known(pl.Name) {
					bad(f+".name", "unknown plugin %q", pl.Name)
				}
				if pl.Weight < 0 || pl.Weight > MaxWeight {
					bad(f+".weight", "%d is not in the range 1 to %d (0 means 1)", pl.Weight, MaxWeight)
				}
			}
			for j, pl := range ns.Set.Disabled {
				if pl.Name != "*" && !known(pl.Name) {
					bad(fmt.Sprintf("%s.plugins.%s.disabled[%d].name", field, ns.Name, j), "unknown plugin %q", pl.Name)
				}
			}
		}
	}
	seen := map[string]bool{}
	for j, pc := range p.PluginConfig {
		f := fmt.Sprintf("%s.pluginConfig[%d].name", field, j)
		switch {
		case !known(pc.Name):
			bad(f, "unknown plugin %q", pc.Name)
		case seen[pc.Name]:
			bad(f, "%q is configured twice", pc.Name)
		}
		seen[pc.Name] = true
	}
	return errs
}
