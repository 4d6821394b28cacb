package options

import (
	"github.com/spf13/pflag"

	"platform.io/platform/pkg/component/server"
)

// Debugging turns on the profiling endpoints.
type Debugging struct {
	EnableProfiling           bool
	EnableContentionProfiling bool
}

// NewDebugging returns the defaults: profiling on, as upstream has it.
func NewDebugging(d Defaults) *Debugging {
	return &Debugging{EnableProfiling: true, EnableContentionProfiling: d.ContentionProfiling}
}

// AddFlags registers the debugging flags.
func (o *Debugging) AddFlags(fs *pflag.FlagSet) {
	fs.BoolVar(&o.EnableProfiling, "profiling", o.EnableProfiling, "Serve profiles at /debug/pprof/ on the secure port.")
	fs.BoolVar(&o.EnableContentionProfiling, "contention-profiling", o.EnableContentionProfiling, "Also record block (contention) profiles, if --profiling is on.")
}

// Validate checks the debugging options; every combination is valid.
func (o *Debugging) Validate() []error { return nil }

// ApplyTo sets what the server serves.
func (o *Debugging) ApplyTo(cfg *server.Config) {
	cfg.EnableProfiling = o.EnableProfiling
	cfg.EnableContentionProfiling = o.EnableProfiling && o.EnableContentionProfiling
}
