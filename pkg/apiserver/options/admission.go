package options

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"platform.io/platform/pkg/apiserver/admission/plugins"
)

// Admission chooses the admission plugins.
type Admission struct {
	// Enable and Disable name plugins to turn on or off besides the
	// default-on set; the plugins run in their fixed order either way.
	Enable  []string
	Disable []string
}

// NewAdmission returns the defaults: upstream's default-on plugins.
func NewAdmission() *Admission { return &Admission{} }

// AddFlags adds the admission flags to fs.
func (o *Admission) AddFlags(fs *pflag.FlagSet) {
	fs.StringSliceVar(&o.Enable, "enable-admission-plugins", o.Enable, fmt.Sprintf(
		"admission plugins that should be enabled in addition to default enabled ones (%s). Comma-delimited list of admission plugins: %s. The order of plugins in this flag does not matter.",
		strings.Join(plugins.DefaultOn(), ", "), strings.Join(plugins.Names(), ", ")))
	fs.StringSliceVar(&o.Disable, "disable-admission-plugins", o.Disable, fmt.Sprintf(
		"admission plugins that should be disabled although they are in the default enabled plugins list (%s). Comma-delimited list of admission plugins: %s. The order of plugins in this flag does not matter.",
		strings.Join(plugins.DefaultOn(), ", "), strings.Join(plugins.Names(), ", ")))
}

// Validate checks that every name is a plugin and none is both enabled and
// disabled.
func (o *Admission) Validate() []error {
	var errs []error
	known := plugins.Names()
	for _, flag := range []struct {
		name  string
		names []string
	}{{"--enable-admission-plugins", o.Enable}, {"--disable-admission-plugins", o.Disable}} {
		for _, n := range flag.names {
			if !slices.Contains(known, n) {
				errs = append(errs, fmt.Errorf("%s: unknown admission plugin %q; known: %s", flag.name, n, strings.Join(known, ", ")))
			}
		}
	}
	for _, n := range o.Enable {
		if slices.Contains(o.Disable, n) {
			errs = append(errs, fmt.Errorf("admission plugin %q is both enabled and disabled", n))
		}
	}
	return errs
}
