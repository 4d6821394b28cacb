package controlplane

import (
	"context"
	"fmt"
	"net"
	"reflect"
	"slices"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
)

// Record is one API server's entry: where it serves.
type Record struct {
	IP   string `json:"ip"`
	Port int    `json:"port"`
}

// subsets are the Endpoints subsets listing records: one subset per port,
// ports ascending, addresses sorted by IP (in byte order, so 127.0.0.10
// follows 127.0.0.9), duplicates dropped.
func subsets(records []Record) []corev1.EndpointSubset {
	byPort := map[int][]string{}
	for _, r := range records {
		if !slices.Contains(byPort[r.Port], r.IP) {
			byPort[r.Port] = append(byPort[r.Port], r.IP)
		}
	}
	ports := make([]int, 0, len(byPort))
	for p := range byPort {
		ports = append(ports, p)
	}
	slices.Sort(ports)
	var out []corev1.EndpointSubset
	for _, p := range ports {
		ips := byPort[p]
		slices.SortFunc(ips, compareIPs)
		s := corev1.EndpointSubset{Ports: []corev1.EndpointPort{{Name: PortName, Port: int32(p), Protocol: corev1.ProtocolTCP}}}
		for _, ip := range ips {
			s.Addresses = append(s.Addresses, corev1.EndpointAddress{IP: ip})
		}
		out = append(out, s)
	}
	return out
}

func compareIPs(a, b string) int {
	ia, ib := net.ParseIP(a).To16(), net.ParseIP(b).To16()
	if c := slices.Compare(ia, ib); c != 0 {
		return c
	}
	if a < b {
		return -1
	}
	if a > b {
		return 1
	}
	return 0
}

// writeEndpoints makes the Endpoints list exactly want, creating them if
// they do not exist. It writes nothing when they already do.
func writeEndpoints(ctx context.Context, endpoints objectStore, want []corev1.EndpointSubset) error {
	cur, err := endpoints.Get(ctx, Namespace, Name)
	if apierrors.IsNotFound(err) {
		ep := &corev1.Endpoints{ObjectMeta: meta.ObjectMeta{Name: Name, Namespace: Namespace}, Subsets: want}
		if _, err := endpoints.Create(ctx, ep, false); err != nil {
			return fmt.Errorf("create endpoints %s/%s: %w", Namespace, Name, err)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("read endpoints %s/%s: %w", Namespace, Name, err)
	}
	if reflect.DeepEqual(cur.(*corev1.Endpoints).Subsets, want) {
		return nil
	}
	_, _, err = endpoints.Update(ctx, Namespace, Name, func(_ context.Context, obj meta.Object) (meta.Object, error) {
		obj.(*corev1.Endpoints).Subsets = want
		return obj, nil
	}, registry.UpdateOptions{Patch: true})
	if err != nil {
		return fmt.Errorf("update endpoints %s/%s: %w", Namespace, Name, err)
	}
	return nil
}
