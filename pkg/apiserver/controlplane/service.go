package controlplane

import (
	"context"
	"fmt"
	"slices"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/intstr"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
)

// The API server's own Service: upstream's kubernetes Service, branded.
const (
	// Namespace holds the Service and its Endpoints.
	Namespace = "default"
	// Name is the Service's and the Endpoints' name.
	Name = "platform"
	// PortName names the one port of the Service and the Endpoints.
	PortName = "https"
	// ServicePort is the port clients of the Service connect to.
	ServicePort = 443
)

// objectStore is what the controller needs of a registry store.
type objectStore interface {
	Get(ctx context.Context, ns, name string) (meta.Object, error)
	Create(ctx context.Context, obj meta.Object, dryRun bool) (meta.Object, error)
	Update(ctx context.Context, ns, name string, transform registry.TransformFunc, opts registry.UpdateOptions) (meta.Object, bool, error)
}

var _ objectStore = (*registry.Store)(nil)

// servicePorts are the ports of the Service for an API server serving on
// securePort.
func servicePorts(securePort int) []corev1.ServicePort {
	return []corev1.ServicePort{{Name: PortName, Protocol: corev1.ProtocolTCP, Port: ServicePort, TargetPort: intstr.FromInt(securePort)}}
}

// ensureService creates the Service, or sets its ports when they are not
// those of this server (a changed --secure-port); the rest of a Service an
// operator edited is left alone.
func ensureService(ctx context.Context, services objectStore, securePort int) error {
	want := servicePorts(securePort)
	cur, err := services.Get(ctx, Namespace, Name)
	if apierrors.IsNotFound(err) {
		svc := &corev1.Service{
			ObjectMeta: meta.ObjectMeta{Name: Name, Namespace: Namespace, Labels: map[string]string{"component": "apiserver", "provider": "platform"}},
			Spec:       corev1.ServiceSpec{Type: corev1.ServiceTypeClusterIP, Ports: want, SessionAffinity: corev1.ServiceAffinityNone},
		}
		if _, err := services.Create(ctx, svc, false); err != nil && !apierrors.IsAlreadyExists(err) {
			return fmt.Errorf("create service %s/%s: %w", Namespace, Name, err)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("read service %s/%s: %w", Namespace, Name, err)
	}
	if slices.Equal(cur.(*corev1.Service).Spec.Ports, want) {
		return nil
	}
	_, _, err = services.Update(ctx, Namespace, Name, func(_ context.Context, obj meta.Object) (meta.Object, error) {
		obj.(*corev1.Service).Spec.Ports = want
		return obj, nil
	}, registry.UpdateOptions{Patch: true})
	if err != nil {
		return fmt.Errorf("update the ports of service %s/%s: %w", Namespace, Name, err)
	}
	return nil
}
