package client

import (
	"context"
	"errors"
	"fmt"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
)

// ErrNoEndpoint: the Service has no ready address for the port.
var ErrNoEndpoint = errors.New("no ready endpoint for the webhook's service")

// StoreResolver resolves a Service port through the Service (its port's
// name) and its Endpoints (the first ready address with that port name),
// read from the watch cache. An ExternalName Service resolves, as
// upstream's, to its external name and the port asked for.
type StoreResolver struct {
	Services  *registry.Store
	Endpoints *registry.Store
}

var _ Resolver = StoreResolver{}

// Resolve implements Resolver.
func (r StoreResolver) Resolve(ctx context.Context, namespace, name string, port int32) (string, error) {
	obj, err := r.Services.GetCached(ctx, namespace, name)
	if err != nil {
		return "", fmt.Errorf("service %s/%s: %w", namespace, name, err)
	}
	svc, ok := obj.(*corev1.Service)
	if !ok {
		return "", fmt.Errorf("service %s/%s: unexpected %T", namespace, name, obj)
	}
	if svc.Spec.Type == corev1.ServiceTypeExternalName {
		return Addr(svc.Spec.ExternalName, port), nil
	}
	portName, found := "", false
	for _, p := range svc.Spec.Ports {
		if p.Port == port {
			portName, found = p.Name, true
			break
		}
	}
	if !found {
		return "", fmt.Errorf("%w: service %s/%s has no port %d", ErrNoEndpoint, namespace, name, port)
	}
	obj, err = r.Endpoints.GetCached(ctx, namespace, name)
	if err != nil {
		return "", fmt.Errorf("endpoints %s/%s: %w", namespace, name, err)
	}
	ep, ok := obj.(*corev1.Endpoints)
	if !ok {
		return "", fmt.Errorf("endpoints %s/%s: unexpected %T", namespace, name, obj)
	}
	return pick(ep, portName, meta.GroupResource{Resource: "services"}.String()+"/"+namespace+"/"+name)
}

// pick returns the first ready address serving the port named portName.
func pick(ep *corev1.Endpoints, portName, what string) (string, error) {
	for _, s := range ep.Subsets {
		if len(s.Addresses) == 0 {
			continue
		}
		for _, p := range s.Ports {
			if p.Name == portName {
				return Addr(s.Addresses[0].IP, p.Port), nil
			}
		}
	}
	return "", fmt.Errorf("%w: %s port %q", ErrNoEndpoint, what, portName)
}
