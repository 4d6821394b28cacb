package simcloud

import (
	"context"
	"fmt"

	cloud "platform.io/client/cloudprovider"
)

// GetZone returns the zone of the node's instance.
func (c *Cloud) GetZone(_ context.Context, n cloud.Node) (cloud.Zone, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	in := c.lookupLocked(n)
	if in == nil {
		return cloud.Zone{}, fmt.Errorf("node %s: %w", n.Name, cloud.ErrInstanceNotFound)
	}
	return cloud.Zone{Zone: in.Zone, Region: c.cfg.Region}, nil
}
