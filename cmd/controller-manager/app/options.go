package app

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"platform.io/platform/pkg/component/cli"
	"platform.io/platform/pkg/controller"
)

// Options are the controller manager's own flags: --controllers and each
// loop's flags, in a group per loop.
type Options struct {
	Controllers []string
	// UseServiceAccountCredentials runs each loop on its own service
	// account in platform-system (ServiceAccount), as upstream.
	UseServiceAccountCredentials bool

	names []string
	loops []controller.Options // by table index; nil for a loop without flags
}

// NewOptions returns the defaults for the loops in table.
func NewOptions(table []controller.Descriptor) *Options {
	o := &Options{Controllers: []string{"*"}, loops: make([]controller.Options, len(table))}
	seen := map[string]bool{}
	for i, d := range table {
		if seen[d.Name] {
			panic(fmt.Sprintf("controller-manager: controller %q registered twice", d.Name))
		}
		seen[d.Name] = true
		o.names = append(o.names, d.Name)
		if d.NewOptions != nil {
			o.loops[i] = d.NewOptions()
		}
	}
	return o
}

// Groups returns "Controllers" and one group per loop with flags.
func (o *Options) Groups() []cli.NamedFlagSet {
	groups := []cli.NamedFlagSet{cli.Group("Controllers", func(fs *pflag.FlagSet) {
		fs.BoolVar(&o.UseServiceAccountCredentials, "use-service-account-credentials", o.UseServiceAccountCredentials, "If true, each controller reaches the API server as its own service account in platform-system (system:serviceaccount:platform-system:<account>, bound to the role system:controller:<account>), with a token the controller manager requests and renews; the manager's own credentials then only create those accounts and their tokens. The shared informers list and watch with the manager's own credentials.")
		fs.StringSliceVar(&o.Controllers, "controllers", o.Controllers, "Controllers to run: '*' runs every controller on by default, 'foo' also runs foo, '-foo' does not run foo. All: "+strings.Join(o.names, ", ")+".")
	})}
	for i, l := range o.loops {
		if l != nil {
			groups = append(groups, cli.Group(o.names[i]+" controller", l.AddFlags))
		}
	}
	return groups
}

// Validate checks --controllers and every loop's flags, enabled or not.
func (o *Options) Validate() []error {
	var errs []error
	if err := controller.ValidateList(o.Controllers, o.names); err != nil {
		errs = append(errs, err)
	}
	for _, l := range o.loops {
		if l != nil {
			errs = append(errs, l.Validate()...)
		}
	}
	return errs
}
