package app

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"platform.io/platform/pkg/cloudprovider"
	"platform.io/platform/pkg/cloudprovider/plugin"
	"platform.io/platform/pkg/component/cli"
	"platform.io/platform/pkg/controller"
)

// Options are the cloud controller manager's own flags: the cloud
// provider, --cluster-name, --controllers and each loop's flags.
type Options struct {
	Cloud       *plugin.Options
	ClusterName string
	Controllers []string

	names []string
	loops []controller.Options // by table index; nil for a loop without flags
}

// NewOptions returns the defaults for the loops in table.
func NewOptions(table []cloudprovider.Descriptor) *Options {
	o := &Options{Cloud: plugin.NewOptions(), ClusterName: "platform", Controllers: []string{"*"},
		loops: make([]controller.Options, len(table))}
	seen := map[string]bool{}
	for i, d := range table {
		if seen[d.Name] {
			panic(fmt.Sprintf("cloud-controller-manager: controller %q registered twice", d.Name))
		}
		seen[d.Name] = true
		o.names = append(o.names, d.Name)
		if d.NewOptions != nil {
			o.loops[i] = d.NewOptions()
		}
	}
	return o
}

// Groups returns "Cloud provider", "Controllers" and one group per loop
// with flags.
func (o *Options) Groups() []cli.NamedFlagSet {
	groups := []cli.NamedFlagSet{
		cli.Group("Cloud provider", func(fs *pflag.FlagSet) {
			o.Cloud.AddFlags(fs)
			fs.StringVar(&o.ClusterName, "cluster-name", o.ClusterName, "The instance prefix for the cluster: the name the provider's load balancers and routes are kept under.")
		}),
		cli.Group("Controllers", func(fs *pflag.FlagSet) {
			fs.StringSliceVar(&o.Controllers, "controllers", o.Controllers, "Controllers to run: '*' runs every controller, 'foo' runs foo, '-foo' does not run foo. All: "+strings.Join(o.names, ", ")+".")
		}),
	}
	for i, l := range o.loops {
		if l != nil {
			groups = append(groups, cli.Group(o.names[i]+" controller", l.AddFlags))
		}
	}
	return groups
}

// Validate checks every flag, of enabled loops or not.
func (o *Options) Validate() []error {
	errs := o.Cloud.Validate()
	if o.ClusterName == "" {
		errs = append(errs, errors.New("--cluster-name must not be empty"))
	}
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

// Loops returns each loop's options, by table index (nil for a loop
// without flags), for callers that build the daemon in-process.
func (o *Options) Loops() []controller.Options { return o.loops }
