package endpoints

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/intstr"
)

// inEndpoints reports whether a pod may be listed at all: it has an IP and
// has not finished, and it is not terminating unless the service publishes
// not-ready addresses.
func inEndpoints(pod *corev1.Pod, publishNotReady bool) bool {
	if pod.Status.PodIP == "" || pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed {
		return false
	}
	return pod.DeletionTimestamp == nil || publishNotReady
}

// podReady reports whether the pod's Ready condition is True.
func podReady(pod *corev1.Pod) bool {
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// findPort resolves a service port's target on a pod: a number as it is,
// a name through the pod's container ports of that name and protocol.
func findPort(pod *corev1.Pod, sp *corev1.ServicePort) (int32, error) {
	tp := sp.TargetPort
	if tp.Type == intstr.String {
		for _, c := range pod.Spec.Containers {
			for _, p := range c.Ports {
				if p.Name == tp.StrVal && cmp.Or(p.Protocol, corev1.ProtocolTCP) == cmp.Or(sp.Protocol, corev1.ProtocolTCP) {
					return p.ContainerPort, nil
				}
			}
		}
		return 0, fmt.Errorf("no container port named %q", tp.StrVal)
	}
	if tp.IntVal == 0 {
		return sp.Port, nil
	}
	return tp.IntVal, nil
}

// address is a pod's endpoint address.
func address(pod *corev1.Pod, svc *corev1.Service) corev1.EndpointAddress {
	node := pod.Spec.NodeName
	a := corev1.EndpointAddress{IP: pod.Status.PodIP, TargetRef: &corev1.ObjectReference{
		Kind: "Pod", Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID,
	}}
	if node != "" {
		a.NodeName = &node
	}
	if pod.Spec.Hostname != "" && pod.Spec.Subdomain == svc.Name && pod.Namespace == svc.Namespace {
		a.Hostname = pod.Spec.Hostname
	}
	return a
}

// subsetsFor computes the service's subsets from the pods: every pod that
// may be listed, ready (or published anyway) or not, under each service
// port that resolves on it; a headless service without ports lists the
// addresses alone. Subsets with the same ports are merged and everything
// is sorted, so equal inputs give equal outputs.
func subsetsFor(svc *corev1.Service, pods []*corev1.Pod) []corev1.EndpointSubset {
	publish := svc.Spec.PublishNotReadyAddresses
	groups := map[string]*corev1.EndpointSubset{}
	add := func(ports []corev1.EndpointPort, a corev1.EndpointAddress, ready bool) {
		k := portsKey(ports)
		g, ok := groups[k]
		if !ok {
			g = &corev1.EndpointSubset{Ports: ports}
			groups[k] = g
		}
		if ready {
			g.Addresses = append(g.Addresses, a)
		} else {
			g.NotReadyAddresses = append(g.NotReadyAddresses, a)
		}
	}
	for _, pod := range pods {
		if !inEndpoints(pod, publish) {
			continue
		}
		a, ready := address(pod, svc), publish || podReady(pod)
		if len(svc.Spec.Ports) == 0 {
			if svc.Spec.ClusterIP == corev1.ClusterIPNone {
				add(nil, a, ready)
			}
			continue
		}
		var ports []corev1.EndpointPort
		for i := range svc.Spec.Ports {
			sp := &svc.Spec.Ports[i]
			n, err := findPort(pod, sp)
			if err != nil {
				continue
			}
			ports = append(ports, corev1.EndpointPort{Name: sp.Name, Port: n, Protocol: cmp.Or(sp.Protocol, corev1.ProtocolTCP), AppProtocol: sp.AppProtocol})
		}
		// Each port is its own subset entry before repacking, as upstream
		// builds them; repacking merges the ones with equal port sets.
		for _, p := range ports {
			add([]corev1.EndpointPort{p}, a, ready)
		}
	}
	return repack(groups)
}

// repack merges subsets that list the same addresses into one with the
// union of their ports, then sorts the subsets, addresses and ports.
func repack(groups map[string]*corev1.EndpointSubset) []corev1.EndpointSubset {
	byAddrs := map[string]*corev1.EndpointSubset{}
	for _, g := range groups {
		sortAddresses(g.Addresses)
		sortAddresses(g.NotReadyAddresses)
		k := addrsKey(g.Addresses) + "|" + addrsKey(g.NotReadyAddresses)
		if m, ok := byAddrs[k]; ok {
			m.Ports = append(m.Ports, g.Ports...)
			continue
		}
		c := *g
		c.Ports = slices.Clone(g.Ports)
		byAddrs[k] = &c
	}
	out := make([]corev1.EndpointSubset, 0, len(byAddrs))
	for _, s := range byAddrs {
		slices.SortFunc(s.Ports, func(a, b corev1.EndpointPort) int {
			return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.Port, b.Port), cmp.Compare(a.Protocol, b.Protocol))
		})
		out = append(out, *s)
	}
	slices.SortFunc(out, func(a, b corev1.EndpointSubset) int {
		return cmp.Compare(portsKey(a.Ports)+addrsKey(a.Addresses)+addrsKey(a.NotReadyAddresses),
			portsKey(b.Ports)+addrsKey(b.Addresses)+addrsKey(b.NotReadyAddresses))
	})
	if len(out) == 0 {
		return nil
	}
	return out
}

func sortAddresses(as []corev1.EndpointAddress) {
	slices.SortFunc(as, func(a, b corev1.EndpointAddress) int {
		return cmp.Or(cmp.Compare(a.IP, b.IP), cmp.Compare(refUID(a), refUID(b)))
	})
}

func refUID(a corev1.EndpointAddress) string {
	if a.TargetRef == nil {
		return ""
	}
	return string(a.TargetRef.UID)
}

func portsKey(ps []corev1.EndpointPort) string {
	var b strings.Builder
	for _, p := range ps {
		fmt.Fprintf(&b, "%s/%d/%s;", p.Name, p.Port, p.Protocol)
	}
	return b.String()
}

func addrsKey(as []corev1.EndpointAddress) string {
	var b strings.Builder
	for _, a := range as {
		b.WriteString(a.IP + "/" + refUID(a) + ";")
	}
	return b.String()
}
