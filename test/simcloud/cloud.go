package simcloud

import (
	"errors"
	"fmt"
	"net/netip"
	"sync"

	"go.uber.org/zap"

	cloud "platform.io/client/cloudprovider"
)

// Errors of the control methods.
var (
	ErrUnknownInstance = errors.New("simcloud: no such instance")
	ErrExists          = errors.New("simcloud: instance exists")
)

// Endpoints returns the host:port backends of the service's port named
// port ("" for an unnamed port).
type Endpoints func(namespace, name, port string) []string

// Cloud is the simulated cloud; it implements every part of the provider
// interface. mu guards instances, lbs, used and routes.
type Cloud struct {
	lg        *zap.Logger
	cfg       Config
	lbRange   netip.Prefix
	endpoints Endpoints

	mu        sync.Mutex
	instances map[string]*Instance
	lbs       map[string]*loadBalancer
	used      map[netip.Addr]bool
	routes    map[string]cloud.Route // by cluster + "/" + name
}

var (
	_ cloud.Interface     = (*Cloud)(nil)
	_ cloud.Instances     = (*Cloud)(nil)
	_ cloud.Zones         = (*Cloud)(nil)
	_ cloud.LoadBalancers = (*Cloud)(nil)
	_ cloud.Routes        = (*Cloud)(nil)
)

// New returns the cloud of cfg (validated) with its starting instances;
// its load balancers find backends with endpoints.
func New(lg *zap.Logger, cfg Config, endpoints Endpoints) (*Cloud, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	c := &Cloud{lg: lg, cfg: cfg, lbRange: netip.MustParsePrefix(cfg.LoadBalancerCIDR).Masked(), endpoints: endpoints,
		instances: map[string]*Instance{}, lbs: map[string]*loadBalancer{}, used: map[netip.Addr]bool{}, routes: map[string]cloud.Route{}}
	loaded, err := c.load()
	if err != nil {
		c.Close()
		return nil, err
	}
	if loaded {
		return c, nil
	}
	for i := range cfg.Instances {
		name := fmt.Sprintf("%s%d", cfg.NamePrefix, i)
		if err := c.AddInstance(name, cfg.Zones[i%len(cfg.Zones)], internalIP(i)); err != nil {
			return nil, err
		}
	}
	return c, nil
}

func (c *Cloud) Name() string                               { return c.cfg.Name }
func (c *Cloud) Instances() (cloud.Instances, bool)         { return c, true }
func (c *Cloud) Zones() (cloud.Zones, bool)                 { return c, true }
func (c *Cloud) LoadBalancers() (cloud.LoadBalancers, bool) { return c, true }
func (c *Cloud) Routes() (cloud.Routes, bool)               { return c, true }

// Close closes every load balancer's listeners and connections.
func (c *Cloud) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for key, lb := range c.lbs {
		lb.close()
		delete(c.lbs, key)
	}
}
