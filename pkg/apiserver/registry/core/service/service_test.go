package service

import (
	"slices"
	"testing"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/intstr"
	"platform.io/client/api/meta"
)

func ptr[T any](v T) *T { return &v }

// stored returns a service as a create leaves it: defaulted and prepared.
func stored(mutate func(*corev1.Service)) *corev1.Service {
	s := &corev1.Service{ObjectMeta: meta.ObjectMeta{Name: "web", Namespace: "ns"}}
	s.Spec.Selector = map[string]string{"app": "web"}
	s.Spec.Ports = []corev1.ServicePort{{Port: 80}}
	mutate(s)
	setDefaults(s)
	prepareForCreate(s)
	return s
}

func TestResource(t *testing.T) {
	r := Resource()
	if r.Name != "services" || r.Singular != "service" || r.Kind != "Service" || r.Group != "" || r.Version != "v1" {
		t.Fatalf("bad names: %+v", r)
	}
	if !r.Namespaced || !r.HasStatus || !r.AllowCreateOnUpdate || r.Strategy == nil {
		t.Fatalf("bad flags: %+v", r)
	}
	if !slices.Equal(r.ShortNames, []string{"svc"}) || !slices.Equal(r.Categories, []string{"all"}) {
		t.Fatalf("short names %v, categories %v", r.ShortNames, r.Categories)
	}
	if len(r.NameFunc("web-1")) != 0 || len(r.NameFunc("1web")) == 0 {
		t.Fatal("NameFunc is not the DNS-1035 label check")
	}
	if _, ok := r.New().(*corev1.Service); !ok {
		t.Fatalf("New returned %T", r.New())
	}
	f := r.Fields(&corev1.Service{Spec: corev1.ServiceSpec{ClusterIP: "10.0.0.1", Type: "NodePort"}})
	if f["spec.clusterIP"] != "10.0.0.1" || f["spec.type"] != "NodePort" {
		t.Fatalf("fields = %v", f)
	}
}

func TestDefaults(t *testing.T) {
	s := &corev1.Service{Spec: corev1.ServiceSpec{Ports: []corev1.ServicePort{{Port: 80}, {Port: 53, TargetPort: intstr.FromString("")}}}}
	Resource().Strategy.Default(s)
	if s.Spec.Type != corev1.ServiceTypeClusterIP || s.Spec.SessionAffinity != corev1.ServiceAffinityNone {
		t.Errorf("type %q affinity %q", s.Spec.Type, s.Spec.SessionAffinity)
	}
	for i, p := range s.Spec.Ports {
		if p.Protocol != corev1.ProtocolTCP || p.TargetPort != intstr.FromInt(int(p.Port)) {
			t.Errorf("port %d = %+v", i, p)
		}
	}
	if s.Spec.InternalTrafficPolicy == nil || *s.Spec.InternalTrafficPolicy != corev1.ServiceInternalTrafficPolicyCluster {
		t.Errorf("internalTrafficPolicy = %v", s.Spec.InternalTrafficPolicy)
	}
	if s.Spec.ExternalTrafficPolicy != "" || s.Spec.AllocateLoadBalancerNodePorts != nil {
		t.Errorf("ClusterIP service got external defaults: %+v", s.Spec)
	}

	lb := &corev1.Service{Spec: corev1.ServiceSpec{Type: "LoadBalancer", SessionAffinity: "ClientIP"}}
	lb.Status.LoadBalancer.Ingress = []corev1.LoadBalancerIngress{{IP: "1.2.3.4"}, {Hostname: "lb.example.com"}}
	setDefaults(lb)
	if lb.Spec.ExternalTrafficPolicy != corev1.ServiceExternalTrafficPolicyCluster {
		t.Errorf("externalTrafficPolicy = %q", lb.Spec.ExternalTrafficPolicy)
	}
	if lb.Spec.AllocateLoadBalancerNodePorts == nil || !*lb.Spec.AllocateLoadBalancerNodePorts {
		t.Errorf("allocateLoadBalancerNodePorts = %v", lb.Spec.AllocateLoadBalancerNodePorts)
	}
	if c := lb.Spec.SessionAffinityConfig; c == nil || *c.ClientIP.TimeoutSeconds != corev1.DefaultClientIPServiceAffinitySeconds {
		t.Errorf("sessionAffinityConfig = %+v", c)
	}
	ing := lb.Status.LoadBalancer.Ingress
	if ing[0].IPMode == nil || *ing[0].IPMode != corev1.LoadBalancerIPModeVIP || ing[1].IPMode != nil {
		t.Errorf("ipMode = %v, %v", ing[0].IPMode, ing[1].IPMode)
	}

	ext := &corev1.Service{Spec: corev1.ServiceSpec{ExternalIPs: []string{"1.2.3.4"}}}
	setDefaults(ext)
	if ext.Spec.ExternalTrafficPolicy != corev1.ServiceExternalTrafficPolicyCluster {
		t.Errorf("ClusterIP with externalIPs: externalTrafficPolicy = %q", ext.Spec.ExternalTrafficPolicy)
	}
	name := &corev1.Service{Spec: corev1.ServiceSpec{Type: "ExternalName"}}
	setDefaults(name)
	if name.Spec.InternalTrafficPolicy != nil || name.Spec.ExternalTrafficPolicy != "" {
		t.Errorf("ExternalName got traffic policies: %+v", name.Spec)
	}
}

func TestDefaultsKeepExplicit(t *testing.T) {
	local := corev1.ServiceInternalTrafficPolicyLocal
	s := &corev1.Service{Spec: corev1.ServiceSpec{
		Type: "NodePort", SessionAffinity: "ClientIP", ExternalTrafficPolicy: "Local", InternalTrafficPolicy: &local,
		SessionAffinityConfig: &corev1.SessionAffinityConfig{ClientIP: &corev1.ClientIPConfig{TimeoutSeconds: ptr[int32](60)}},
		Ports:                 []corev1.ServicePort{{Port: 80, TargetPort: intstr.FromString("http"), Protocol: "UDP"}},
	}}
	setDefaults(s)
	if s.Spec.ExternalTrafficPolicy != "Local" || *s.Spec.InternalTrafficPolicy != local || *s.Spec.SessionAffinityConfig.ClientIP.TimeoutSeconds != 60 {
		t.Errorf("explicit values replaced: %+v", s.Spec)
	}
	if p := s.Spec.Ports[0]; p.TargetPort != intstr.FromString("http") || p.Protocol != "UDP" {
		t.Errorf("explicit port replaced: %+v", p)
	}
	lb := &corev1.Service{Spec: corev1.ServiceSpec{Type: "LoadBalancer", AllocateLoadBalancerNodePorts: ptr(false)}}
	setDefaults(lb)
	if *lb.Spec.AllocateLoadBalancerNodePorts {
		t.Error("explicit allocateLoadBalancerNodePorts=false replaced")
	}
	none := &corev1.Service{Spec: corev1.ServiceSpec{SessionAffinity: "None", SessionAffinityConfig: &corev1.SessionAffinityConfig{}}}
	setDefaults(none)
	if none.Spec.SessionAffinityConfig != nil {
		t.Error("sessionAffinityConfig kept with affinity None")
	}
}
