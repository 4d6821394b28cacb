package podautoscaler

import (
	"context"
	"fmt"
	"time"

	autoscalingv1 "platform.io/client/api/autoscaling/v1"
	"platform.io/client/api/meta"
	"platform.io/client/client"
	"platform.io/client/discovery"
	"platform.io/client/rest"
)

// Scales reads and writes the scale subresource of any scalable resource.
// (Its typed client is over Scale only because the client needs some
// object type; only the scale calls are used.)
type Scales interface {
	Get(ctx context.Context, ns, apiVersion, kind, name string) (*autoscalingv1.Scale, meta.GroupResource, error)
	Update(ctx context.Context, ns, apiVersion, kind string, scale *autoscalingv1.Scale) error
}

// discoveryMaxAge is how old a discovery snapshot may be when a kind is
// looked up in it: a custom kind is found within that long of being
// served, and a scale target of no known kind costs one discovery read per
// that long, not one per sync.
const discoveryMaxAge = 30 * time.Second

// RESTScales finds the resource of a kind in the client's table of
// built-in resources, else in the server's discovery (custom and
// aggregated resources), and sends scale requests through REST.
type RESTScales struct {
	REST *rest.Client
	// Discovery is read for kinds the client's table lacks.
	Discovery *discovery.Set
}

var _ Scales = (*RESTScales)(nil)

// resourceFor maps apiVersion and kind to the resource serving them.
func (s *RESTScales) resourceFor(ctx context.Context, apiVersion, kind string) (client.Resource, error) {
	gv := meta.ParseGroupVersion(apiVersion)
	gvk := meta.GroupVersionKind{Group: gv.Group, Version: gv.Version, Kind: kind}
	if r, ok := client.ResourceForKind(gvk); ok {
		return r, nil
	}
	snap, err := s.Discovery.Get(ctx, discoveryMaxAge)
	if err != nil {
		return client.Resource{}, fmt.Errorf("unable to discover %s: %w", apiVersion, err)
	}
	for _, r := range snap.Resources {
		if r.Group == gv.Group && r.Version == gv.Version && r.Kind == kind {
			return r.Resource, nil
		}
	}
	if err := snap.Failed[meta.GroupVersion{Group: gv.Group, Version: gv.Version}]; err != nil {
		return client.Resource{}, fmt.Errorf("unable to discover %s: %w", apiVersion, err)
	}
	return client.Resource{}, fmt.Errorf("no resource of kind %s in %s", kind, apiVersion)
}

func (s *RESTScales) client(ctx context.Context, ns, apiVersion, kind string) (*client.Client[autoscalingv1.Scale, *autoscalingv1.Scale], client.Resource, error) {
	r, err := s.resourceFor(ctx, apiVersion, kind)
	if err != nil {
		return nil, r, err
	}
	return client.New[autoscalingv1.Scale](s.REST, r).Namespace(ns), r, nil
}

// Get implements Scales.
func (s *RESTScales) Get(ctx context.Context, ns, apiVersion, kind, name string) (*autoscalingv1.Scale, meta.GroupResource, error) {
	c, r, err := s.client(ctx, ns, apiVersion, kind)
	if err != nil {
		return nil, meta.GroupResource{}, err
	}
	sc, err := c.GetScale(ctx, name, meta.GetOptions{})
	return sc, r.GroupResource(), err
}

// Update implements Scales.
func (s *RESTScales) Update(ctx context.Context, ns, apiVersion, kind string, scale *autoscalingv1.Scale) error {
	c, _, err := s.client(ctx, ns, apiVersion, kind)
	if err != nil {
		return err
	}
	_, err = c.UpdateScale(ctx, scale.Name, scale, meta.WriteOptions{})
	return err
}
