package podautoscaler

import (
	"context"
	"fmt"
	"strings"
	"sync"

	autoscalingv1 "platform.io/client/api/autoscaling/v1"
	"platform.io/client/api/meta"
	"platform.io/client/client"
	"platform.io/client/rest"
)

// Scales reads and writes the scale subresource of any scalable resource.
// (Its typed client is over Scale only because the client needs some
// object type; only the scale calls are used.)
type Scales interface {
	Get(ctx context.Context, ns, apiVersion, kind, name string) (*autoscalingv1.Scale, meta.GroupResource, error)
	Update(ctx context.Context, ns, apiVersion, kind string, scale *autoscalingv1.Scale) error
}

// RESTScales finds the resource of a kind in the client's table of
// built-in resources, else in the server's discovery document of the
// kind's group version (cached per group version), and sends scale
// requests through REST.
type RESTScales struct {
	REST *rest.Client

	mu sync.Mutex
	// discovered is guarded by mu: resources by "apiVersion/kind".
	discovered map[string]client.Resource
}

var _ Scales = (*RESTScales)(nil)

// resourceFor maps apiVersion and kind to the resource serving them.
func (s *RESTScales) resourceFor(ctx context.Context, apiVersion, kind string) (client.Resource, error) {
	gv := meta.ParseGroupVersion(apiVersion)
	gvk := meta.GroupVersionKind{Group: gv.Group, Version: gv.Version, Kind: kind}
	if r, ok := client.ResourceForKind(gvk); ok {
		return r, nil
	}
	key := apiVersion + "/" + kind
	s.mu.Lock()
	r, ok := s.discovered[key]
	s.mu.Unlock()
	if ok {
		return r, nil
	}
	p := "/apis/" + apiVersion
	if gv.Group == "" {
		p = "/api/" + apiVersion
	}
	var list meta.APIResourceList
	if err := s.REST.Get().AbsPath(p).Do(ctx).Into(&list); err != nil {
		return client.Resource{}, fmt.Errorf("unable to discover %s: %w", apiVersion, err)
	}
	for _, ar := range list.APIResources {
		if ar.Kind != kind || strings.Contains(ar.Name, "/") {
			continue
		}
		r = client.Resource{Group: gv.Group, Version: gv.Version, Name: ar.Name, Kind: kind, Namespaced: ar.Namespaced,
			Subresources: []string{client.SubresourceScale}}
		s.mu.Lock()
		if s.discovered == nil {
			s.discovered = map[string]client.Resource{}
		}
		s.discovered[key] = r
		s.mu.Unlock()
		return r, nil
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
