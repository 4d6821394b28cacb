package simcloud

import (
	"net"
	"strconv"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/informer"
)

// EndpointsFrom returns the backends of a service port from the Endpoints
// objects in lister: the ready addresses of every subset with a port of
// that name (or the only port, for an unnamed service port).
func EndpointsFrom(lister informer.Lister[*corev1.Endpoints]) Endpoints {
	return func(namespace, name, port string) []string {
		ep, err := lister.Namespace(namespace).Get(name)
		if err != nil {
			return nil
		}
		var out []string
		for _, s := range ep.Subsets {
			for _, p := range s.Ports {
				if p.Name != port && !(port == "" && len(s.Ports) == 1) {
					continue
				}
				for _, a := range s.Addresses {
					out = append(out, net.JoinHostPort(a.IP, strconv.Itoa(int(p.Port))))
				}
			}
		}
		return out
	}
}
