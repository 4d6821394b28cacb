package simcloud

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	cloud "platform.io/client/cloudprovider"
)

// ProviderIDPrefix starts every instance's provider ID.
const ProviderIDPrefix = "simcloud://"

// Instance is one simulated machine.
type Instance struct {
	Name       string `json:"name"`
	ProviderID string `json:"providerID"`
	Zone       string `json:"zone"`
	InternalIP string `json:"internalIP"`
	Shutdown   bool   `json:"shutdown"`
}

// internalIP is the address simnode gives its node i.
func internalIP(i int) string {
	return fmt.Sprintf("172.%d.%d.%d", 16+i/65536, (i/256)%256, i%256+1)
}

// lookupLocked finds the node's instance by provider ID, else by name.
func (c *Cloud) lookupLocked(n cloud.Node) *Instance {
	if id, ok := strings.CutPrefix(n.ProviderID, ProviderIDPrefix); ok {
		return c.instances[id]
	}
	if n.ProviderID != "" {
		return nil
	}
	return c.instances[n.Name]
}

func (c *Cloud) InstanceExists(_ context.Context, n cloud.Node) (bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lookupLocked(n) != nil, nil
}

func (c *Cloud) InstanceShutdown(_ context.Context, n cloud.Node) (bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	in := c.lookupLocked(n)
	if in == nil {
		return false, fmt.Errorf("node %s: %w", n.Name, cloud.ErrInstanceNotFound)
	}
	return in.Shutdown, nil
}

func (c *Cloud) InstanceMetadata(_ context.Context, n cloud.Node) (*cloud.InstanceMetadata, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	in := c.lookupLocked(n)
	if in == nil {
		return nil, fmt.Errorf("node %s: %w", n.Name, cloud.ErrInstanceNotFound)
	}
	return &cloud.InstanceMetadata{
		ProviderID: in.ProviderID, InstanceType: c.cfg.InstanceType,
		Addresses: []cloud.Address{{Type: "InternalIP", Address: cmp.Or(c.cfg.InternalIP, in.InternalIP)}, {Type: "Hostname", Address: in.Name}},
		Zone:      cloud.Zone{Zone: in.Zone, Region: c.cfg.Region},
	}, nil
}

// AddInstance creates a running instance named name in zone, with the
// internal address ip.
func (c *Cloud) AddInstance(name, zone, ip string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.instances[name]; ok {
		return fmt.Errorf("%w: %s", ErrExists, name)
	}
	c.instances[name] = &Instance{Name: name, ProviderID: ProviderIDPrefix + name, Zone: zone, InternalIP: ip}
	return c.saveLocked()
}

// SetShutdown shuts the instance down (true) or starts it (false).
func (c *Cloud) SetShutdown(name string, down bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	in, ok := c.instances[name]
	if !ok {
		return fmt.Errorf("%w: %s", ErrUnknownInstance, name)
	}
	in.Shutdown = down
	return c.saveLocked()
}

// DeleteInstance deletes the instance.
func (c *Cloud) DeleteInstance(name string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.instances[name]; !ok {
		return fmt.Errorf("%w: %s", ErrUnknownInstance, name)
	}
	delete(c.instances, name)
	return c.saveLocked()
}
