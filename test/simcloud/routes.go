package simcloud

import (
	"context"
	"slices"
	"strings"

	cloud "platform.io/client/cloudprovider"
)

func (c *Cloud) ListRoutes(_ context.Context, cluster string) ([]cloud.Route, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []cloud.Route
	for key, r := range c.routes {
		if strings.HasPrefix(key, cluster+"/") {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b cloud.Route) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// CreateRoute adds the route under nameHint; it replaces a route of the
// same name.
func (c *Cloud) CreateRoute(_ context.Context, cluster, nameHint string, r cloud.Route) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	r.Name = nameHint
	c.routes[cluster+"/"+nameHint] = r
	return c.saveLocked()
}

// DeleteRoute removes the route with r's name, or else with r's target and
// destination.
func (c *Cloud) DeleteRoute(_ context.Context, cluster string, r cloud.Route) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for key, have := range c.routes {
		if !strings.HasPrefix(key, cluster+"/") {
			continue
		}
		if (r.Name != "" && have.Name == r.Name) || (have.TargetNode == r.TargetNode && have.DestinationCIDR == r.DestinationCIDR) {
			delete(c.routes, key)
		}
	}
	return c.saveLocked()
}
