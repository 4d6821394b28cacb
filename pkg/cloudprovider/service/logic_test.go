package service

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	cloud "platform.io/client/cloudprovider"
)

func svc(typ corev1.ServiceType, mutate ...func(*corev1.Service)) *corev1.Service {
	s := &corev1.Service{ObjectMeta: meta.ObjectMeta{Namespace: "ns", Name: "web", UID: "u1"},
		Spec: corev1.ServiceSpec{Type: typ, Ports: []corev1.ServicePort{{Name: "http", Port: 80, NodePort: 30080}}}}
	for _, m := range mutate {
		m(s)
	}
	return s
}

func TestWantsLoadBalancer(t *testing.T) {
	other := "example.com/other"
	now := meta.Now()
	for _, tc := range []struct {
		name string
		svc  *corev1.Service
		want bool
	}{
		{"load balancer", svc(corev1.ServiceTypeLoadBalancer), true},
		{"cluster IP", svc(corev1.ServiceTypeClusterIP), false},
		{"node port", svc(corev1.ServiceTypeNodePort), false},
		{"other class", svc(corev1.ServiceTypeLoadBalancer, func(s *corev1.Service) { s.Spec.LoadBalancerClass = &other }), false},
		{"being deleted", svc(corev1.ServiceTypeLoadBalancer, func(s *corev1.Service) { s.DeletionTimestamp = &now }), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := wantsLoadBalancer(tc.svc); got != tc.want {
				t.Errorf("wantsLoadBalancer = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestToCloudDefaultsProtocol(t *testing.T) {
	got := toCloud(svc(corev1.ServiceTypeLoadBalancer))
	want := &cloud.Service{Namespace: "ns", Name: "web", UID: "u1",
		Ports: []cloud.ServicePort{{Name: "http", Protocol: "TCP", Port: 80, NodePort: 30080}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("toCloud (-want +got):\n%s", diff)
	}
}

func node(name string, ready corev1.ConditionStatus, labels map[string]string) *corev1.Node {
	return &corev1.Node{ObjectMeta: meta.ObjectMeta{Name: name, Labels: labels}, Spec: corev1.NodeSpec{ProviderID: "p://" + name},
		Status: corev1.NodeStatus{Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: ready}}}}
}

func TestBackends(t *testing.T) {
	nodes := []*corev1.Node{
		node("c", corev1.ConditionTrue, nil),
		node("a", corev1.ConditionTrue, nil),
		node("b", corev1.ConditionFalse, nil),
		node("d", corev1.ConditionTrue, map[string]string{corev1.LabelExcludeFromExternalLoadBalancers: ""}),
		{ObjectMeta: meta.ObjectMeta{Name: "e"}},
	}
	want := []cloud.Node{{Name: "a", ProviderID: "p://a"}, {Name: "c", ProviderID: "p://c"}}
	if diff := cmp.Diff(want, backends(nodes)); diff != "" {
		t.Errorf("backends (-want +got):\n%s", diff)
	}
}

func TestNodeSetChanged(t *testing.T) {
	a := node("a", corev1.ConditionTrue, nil)
	for _, tc := range []struct {
		name     string
		old, cur *corev1.Node
		want     bool
	}{
		{"same", a, node("a", corev1.ConditionTrue, map[string]string{"x": "y"}), false},
		{"not ready", a, node("a", corev1.ConditionFalse, nil), true},
		{"excluded", a, node("a", corev1.ConditionTrue, map[string]string{corev1.LabelExcludeFromExternalLoadBalancers: "true"}), true},
		{"added", nil, a, true},
		{"deleted", a, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := nodeSetChanged(tc.old, tc.cur); got != tc.want {
				t.Errorf("nodeSetChanged = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestSameIngress(t *testing.T) {
	st := ingress(&cloud.LoadBalancerStatus{Ingress: []cloud.Ingress{{IP: "127.77.0.1"}}})
	if !sameIngress(st, corev1.LoadBalancerStatus{Ingress: []corev1.LoadBalancerIngress{{IP: "127.77.0.1"}}}) {
		t.Error("same ingress reported different")
	}
	if sameIngress(st, corev1.LoadBalancerStatus{}) || sameIngress(st, ingress(&cloud.LoadBalancerStatus{Ingress: []cloud.Ingress{{IP: "127.77.0.2"}}})) {
		t.Error("different ingress reported same")
	}
}

func TestDecideSync(t *testing.T) {
	a, b := []cloud.Node{{Name: "a"}}, []cloud.Node{{Name: "a"}, {Name: "b"}}
	last := applied{spec: "s1", nodes: a}
	for _, tc := range []struct {
		name         string
		known, first bool
		spec         string
		nodes        []cloud.Node
		want         syncAction
	}{
		{"new leader", false, false, "s1", a, syncEnsure},
		{"no ingress yet", true, true, "s1", a, syncEnsure},
		{"ports changed", true, false, "s2", a, syncEnsure},
		{"nodes changed", true, false, "s1", b, syncNodes},
		{"nothing changed", true, false, "s1", a, syncNothing},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := decideSync(last, tc.known, tc.first, tc.spec, tc.nodes); got != tc.want {
				t.Errorf("decideSync = %v, want %v", got, tc.want)
			}
		})
	}
}
