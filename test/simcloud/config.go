package simcloud

import (
	"errors"
	"fmt"
	"net/netip"
	"os"

	"github.com/spf13/pflag"
	"sigs.k8s.io/yaml"
)

// Config is the simulated cloud's configuration: flags of
// platform-simcloud, or fields of its --cloud-config file.
type Config struct {
	// Name is the provider's name in the handshake.
	Name string `json:"name"`
	// Region of every instance.
	Region string `json:"region"`
	// Zones the instances are spread over, round robin, as simnode does.
	Zones []string `json:"zones"`
	// InstanceType of every instance.
	InstanceType string `json:"instanceType"`
	// Instances is how many instances exist at start, named
	// <NamePrefix><i> as simnode names its nodes.
	Instances  int    `json:"instances"`
	NamePrefix string `json:"namePrefix"`
	// LoadBalancerCIDR is the loopback range load balancer addresses are
	// allocated from.
	LoadBalancerCIDR string `json:"loadBalancerCIDR"`
	// Kubeconfig reaches the API server, to read the endpoints load
	// balancers forward to.
	Kubeconfig string `json:"kubeconfig"`
	// StateFile keeps the cloud's instances, load balancers and routes
	// across restarts of the plugin; empty to keep them in memory only.
	StateFile string `json:"stateFile"`
	// ControlAddress serves the control endpoint (Handler); empty for none.
	ControlAddress string `json:"controlAddress"`
	// InternalIP, when set, is the InternalIP every instance reports: the
	// address simnode's nodes publish when they serve their resource
	// metrics on it (--resource-metrics-address). Empty: instance i
	// reports simnode's default address of node i.
	InternalIP string `json:"internalIP"`
}

// NewConfig returns the defaults: three instances in zone-a of region-1,
// like simnode's three nodes, with load balancers in 127.77.0.0/16.
func NewConfig() *Config {
	return &Config{Name: "simcloud", Region: "region-1", Zones: []string{"zone-a"}, InstanceType: "sim.standard",
		Instances: 3, NamePrefix: "simnode-", LoadBalancerCIDR: "127.77.0.0/16"}
}

// AddFlags registers the configuration's flags.
func (c *Config) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&c.Name, "name", c.Name, "The provider's name, reported in the plugin handshake.")
	fs.StringVar(&c.Region, "region", c.Region, "Region of every instance.")
	fs.StringSliceVar(&c.Zones, "zones", c.Zones, "Zones the instances are spread over, round robin.")
	fs.StringVar(&c.InstanceType, "instance-type", c.InstanceType, "Instance type of every instance.")
	fs.IntVar(&c.Instances, "instances", c.Instances, "Instances that exist at start, named <name-prefix><i> like simnode's nodes.")
	fs.StringVar(&c.NamePrefix, "name-prefix", c.NamePrefix, "Prefix of the instance names.")
	fs.StringVar(&c.LoadBalancerCIDR, "load-balancer-cidr", c.LoadBalancerCIDR, "Loopback range load balancer addresses are allocated from.")
	fs.StringVar(&c.Kubeconfig, "kubeconfig", c.Kubeconfig, "Kubeconfig of the API server whose Endpoints the load balancers forward to.")
	fs.StringVar(&c.StateFile, "state-file", c.StateFile, "File keeping the cloud's instances, load balancers and routes across restarts; empty keeps them in memory only.")
	fs.StringVar(&c.ControlAddress, "control-address", c.ControlAddress, "host:port of the control endpoint (shut down, start, delete instances; list load balancers and routes); empty for none.")
	fs.StringVar(&c.InternalIP, "internal-ip", c.InternalIP, "InternalIP every instance reports, as simnode's nodes do with --resource-metrics-address; empty gives each instance its simulated node's default address.")
}

// LoadFile applies the YAML file at path over c.
func (c *Config) LoadFile(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := yaml.UnmarshalStrict(data, c); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// Validate checks the configuration.
func (c *Config) Validate() error {
	var errs []error
	if c.Name == "" {
		errs = append(errs, errors.New("name must not be empty"))
	}
	if len(c.Zones) == 0 {
		errs = append(errs, errors.New("zones: at least one zone is needed"))
	}
	if c.Instances < 0 || c.Instances > 65536 {
		errs = append(errs, fmt.Errorf("instances: %d must be between 0 and 65536", c.Instances))
	}
	if c.InternalIP != "" {
		if _, err := netip.ParseAddr(c.InternalIP); err != nil {
			errs = append(errs, fmt.Errorf("internal IP: %w", err))
		}
	}
	p, err := netip.ParsePrefix(c.LoadBalancerCIDR)
	switch {
	case err != nil:
		errs = append(errs, fmt.Errorf("load balancer CIDR: %w", err))
	case !p.Addr().Is4() || !netip.MustParsePrefix("127.0.0.0/8").Contains(p.Addr()) || p.Bits() < 8 || p.Bits() > 30:
		errs = append(errs, fmt.Errorf("load balancer CIDR %s: must be an IPv4 loopback range between /8 and /30", c.LoadBalancerCIDR))
	}
	return errors.Join(errs...)
}
