package service

import (
	"testing"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/intstr"

	"platform.io/platform/pkg/apiserver/registry/core/corevalidation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

func TestValidate(t *testing.T) {
	type svc = corev1.Service
	cases := []struct {
		name   string
		create func(*svc) // before defaults
		mutate func(*svc) // after defaults
		typ    field.Type
		field  string
	}{
		{"minimal", nil, nil, "", ""},
		{"no type", nil, func(s *svc) { s.Spec.Type = "" }, field.TypeRequired, "spec.type"},
		{"bad type", nil, func(s *svc) { s.Spec.Type = "Magic" }, field.TypeNotSupported, "spec.type"},
		{"no ports", func(s *svc) { s.Spec.Ports = nil }, nil, field.TypeRequired, "spec.ports"},
		{"headless without ports", func(s *svc) { s.Spec.Ports, s.Spec.ClusterIP = nil, "None" }, nil, "", ""},
		{"port zero", func(s *svc) { s.Spec.Ports[0].Port = 0; s.Spec.Ports[0].TargetPort = intstr.FromInt(80) }, nil, field.TypeInvalid, "spec.ports[0].port"},
		{"port too big", func(s *svc) { s.Spec.Ports[0].Port = 70000 }, nil, field.TypeInvalid, "spec.ports[0].port"},
		{"bad protocol", func(s *svc) { s.Spec.Ports[0].Protocol = "ICMP" }, nil, field.TypeNotSupported, "spec.ports[0].protocol"},
		{"named target port", func(s *svc) { s.Spec.Ports[0].TargetPort = intstr.FromString("http") }, nil, "", ""},
		{"bad target port name", func(s *svc) { s.Spec.Ports[0].TargetPort = intstr.FromString("http--x") }, nil, field.TypeInvalid, "spec.ports[0].targetPort"},
		{"bad target port number", func(s *svc) { s.Spec.Ports[0].TargetPort = intstr.FromInt(-1) }, nil, field.TypeInvalid, "spec.ports[0].targetPort"},
		{"bad app protocol", func(s *svc) { s.Spec.Ports[0].AppProtocol = ptr("a b") }, nil, field.TypeInvalid, "spec.ports[0].appProtocol"},
		{"two named ports", func(s *svc) { s.Spec.Ports = []corev1.ServicePort{{Name: "a", Port: 80}, {Name: "b", Port: 81}} }, nil, "", ""},
		{"unnamed second port", func(s *svc) { s.Spec.Ports = []corev1.ServicePort{{Name: "a", Port: 80}, {Port: 81}} }, nil, field.TypeRequired, "spec.ports[1].name"},
		{"duplicate port name", func(s *svc) { s.Spec.Ports = []corev1.ServicePort{{Name: "a", Port: 80}, {Name: "a", Port: 81}} }, nil, field.TypeDuplicate, "spec.ports[1].name"},
		{"bad port name", func(s *svc) { s.Spec.Ports[0].Name = "Web" }, nil, field.TypeInvalid, "spec.ports[0].name"},
		{"same port two protocols", func(s *svc) {
			s.Spec.Ports = []corev1.ServicePort{{Name: "a", Port: 53}, {Name: "b", Port: 53, Protocol: "UDP"}}
		}, nil, "", ""},
		{"duplicate port", func(s *svc) { s.Spec.Ports = []corev1.ServicePort{{Name: "a", Port: 80}, {Name: "b", Port: 80}} }, nil, field.TypeDuplicate, "spec.ports[1]"},
		{"node port on NodePort", func(s *svc) { s.Spec.Type, s.Spec.Ports[0].NodePort = "NodePort", 30000 }, nil, "", ""},
		{"node port on ClusterIP", func(s *svc) { s.Spec.Ports[0].NodePort = 30000 }, nil, field.TypeForbidden, "spec.ports[0].nodePort"},
		{"duplicate node port", func(s *svc) {
			s.Spec.Type = "NodePort"
			s.Spec.Ports = []corev1.ServicePort{{Name: "a", Port: 80, NodePort: 30000}, {Name: "b", Port: 81, NodePort: 30000}}
		}, nil, field.TypeDuplicate, "spec.ports[1].nodePort"},
		{"bad selector", func(s *svc) { s.Spec.Selector = map[string]string{"app": "a b"} }, nil, field.TypeInvalid, "spec.selector[app]"},
		{"client IP affinity", func(s *svc) { s.Spec.SessionAffinity = "ClientIP" }, nil, "", ""},
		{"bad affinity", func(s *svc) { s.Spec.SessionAffinity = "Cookie" }, nil, field.TypeNotSupported, "spec.sessionAffinity"},
		{"no affinity", nil, func(s *svc) { s.Spec.SessionAffinity = "" }, field.TypeRequired, "spec.sessionAffinity"},
		{"affinity timeout", func(s *svc) {
			s.Spec.SessionAffinity = "ClientIP"
			s.Spec.SessionAffinityConfig = &corev1.SessionAffinityConfig{ClientIP: &corev1.ClientIPConfig{TimeoutSeconds: ptr[int32](86401)}}
		}, nil, field.TypeInvalid, "spec.sessionAffinityConfig.clientIP.timeoutSeconds"},
		{"config with None", nil, func(s *svc) { s.Spec.SessionAffinityConfig = &corev1.SessionAffinityConfig{} }, field.TypeForbidden, "spec.sessionAffinityConfig"},
		{"config missing", nil, func(s *svc) { s.Spec.SessionAffinity = "ClientIP" }, field.TypeRequired, "spec.sessionAffinityConfig"},
		{"external name", func(s *svc) { s.Spec.Type, s.Spec.ExternalName, s.Spec.Ports = "ExternalName", "db.example.com.", nil }, nil, "", ""},
		{"external name missing", func(s *svc) { s.Spec.Type = "ExternalName" }, nil, field.TypeRequired, "spec.externalName"},
		{"external name invalid", func(s *svc) { s.Spec.Type, s.Spec.ExternalName = "ExternalName", "Not_A_Host" }, nil, field.TypeInvalid, "spec.externalName"},
		{"external name with IP", func(s *svc) { s.Spec.Type, s.Spec.ExternalName, s.Spec.ClusterIP = "ExternalName", "a.b", "10.0.0.1" }, nil, field.TypeForbidden, "spec.clusterIPs"},
		{"external name with families", func(s *svc) { s.Spec.Type, s.Spec.ExternalName = "ExternalName", "a.b" }, func(s *svc) {
			s.Spec.IPFamilies = families(corev1.IPv4Protocol)
		}, field.TypeForbidden, "spec.ipFamilies"},
		{"headless NodePort", func(s *svc) { s.Spec.Type, s.Spec.ClusterIP = "NodePort", "None" }, nil, field.TypeInvalid, "spec.clusterIPs[0]"},
		{"headless LoadBalancer", func(s *svc) { s.Spec.Type, s.Spec.ClusterIP = "LoadBalancer", "None" }, nil, field.TypeInvalid, "spec.clusterIPs[0]"},
		{"bad cluster IP", func(s *svc) { s.Spec.ClusterIP = "10.0.0.300" }, nil, field.TypeInvalid, "spec.clusterIPs[0]"},
		{"clusterIPs mismatch", func(s *svc) { s.Spec.ClusterIP, s.Spec.ClusterIPs = "10.0.0.1", []string{"10.0.0.2"} }, nil, field.TypeInvalid, "spec.clusterIPs"},
		{"clusterIPs without clusterIP", nil, func(s *svc) { s.Spec.ClusterIPs = []string{"10.0.0.2"} }, field.TypeInvalid, "spec.clusterIPs"},
		{"two IPv4 cluster IPs", func(s *svc) {
			s.Spec.ClusterIP, s.Spec.ClusterIPs = "10.0.0.1", []string{"10.0.0.1", "10.0.0.2"}
			s.Spec.IPFamilyPolicy = ptr(corev1.IPFamilyPolicyRequireDualStack)
		}, nil, field.TypeInvalid, "spec.clusterIPs"},
		{"None not alone", func(s *svc) { s.Spec.ClusterIP, s.Spec.ClusterIPs = "None", []string{"None", "10.0.0.1"} }, nil, field.TypeInvalid, "spec.clusterIPs"},
		{"family mismatch", func(s *svc) { s.Spec.ClusterIP, s.Spec.IPFamilies = "10.0.0.1", families(corev1.IPv6Protocol) }, nil, field.TypeInvalid, "spec.clusterIPs[0]"},
		{"bad family", func(s *svc) { s.Spec.IPFamilies = families("IPv5") }, nil, field.TypeNotSupported, "spec.ipFamilies[0]"},
		{"duplicate family", func(s *svc) { s.Spec.IPFamilies = families(corev1.IPv4Protocol, corev1.IPv4Protocol) }, nil, field.TypeDuplicate, "spec.ipFamilies[1]"},
		{"bad policy", func(s *svc) { s.Spec.IPFamilyPolicy = ptr[corev1.IPFamilyPolicy]("Any") }, nil, field.TypeNotSupported, "spec.ipFamilyPolicy"},
		{"single stack two families", func(s *svc) {
			s.Spec.IPFamilyPolicy = ptr(corev1.IPFamilyPolicySingleStack)
			s.Spec.IPFamilies = families(corev1.IPv4Protocol, corev1.IPv6Protocol)
		}, nil, field.TypeInvalid, "spec.ipFamilyPolicy"},
		{"external IP", func(s *svc) { s.Spec.ExternalIPs = []string{"203.0.113.7"} }, nil, "", ""},
		{"bad external IP", func(s *svc) { s.Spec.ExternalIPs = []string{"127.0.0.1"} }, nil, field.TypeInvalid, "spec.externalIPs[0]"},
	}
	runValidate(t, cases)
}

func TestValidateLoadBalancerAndTraffic(t *testing.T) {
	type svc = corev1.Service
	lb := func(s *svc) { s.Spec.Type = "LoadBalancer" }
	cases := []struct {
		name   string
		create func(*svc)
		mutate func(*svc)
		typ    field.Type
		field  string
	}{
		{"load balancer", lb, nil, "", ""},
		{"source ranges", lb, func(s *svc) { s.Spec.LoadBalancerSourceRanges = []string{" 10.0.0.0/8 ", "fd00::/8"} }, "", ""},
		{"bad source range", lb, func(s *svc) { s.Spec.LoadBalancerSourceRanges = []string{"10.0.0.0"} }, field.TypeInvalid, "spec.loadBalancerSourceRanges[0]"},
		{"source ranges on ClusterIP", func(s *svc) { s.Spec.LoadBalancerSourceRanges = []string{"10.0.0.0/8"} }, nil, field.TypeForbidden, "spec.loadBalancerSourceRanges"},
		{"allocate on ClusterIP", func(s *svc) { s.Spec.AllocateLoadBalancerNodePorts = ptr(true) }, nil, field.TypeForbidden, "spec.allocateLoadBalancerNodePorts"},
		{"allocate missing", lb, func(s *svc) { s.Spec.AllocateLoadBalancerNodePorts = nil }, field.TypeRequired, "spec.allocateLoadBalancerNodePorts"},
		{"class", func(s *svc) { lb(s); s.Spec.LoadBalancerClass = ptr("example.com/lb") }, nil, "", ""},
		{"bad class", func(s *svc) { lb(s); s.Spec.LoadBalancerClass = ptr("a b") }, nil, field.TypeInvalid, "spec.loadBalancerClass"},
		{"class on ClusterIP", func(s *svc) { s.Spec.LoadBalancerClass = ptr("example.com/lb") }, nil, field.TypeForbidden, "spec.loadBalancerClass"},
		{"external policy on ClusterIP", nil, func(s *svc) { s.Spec.ExternalTrafficPolicy = "Local" }, field.TypeInvalid, "spec.externalTrafficPolicy"},
		{"external policy missing", lb, func(s *svc) { s.Spec.ExternalTrafficPolicy = "" }, field.TypeRequired, "spec.externalTrafficPolicy"},
		{"bad external policy", lb, func(s *svc) { s.Spec.ExternalTrafficPolicy = "Global" }, field.TypeNotSupported, "spec.externalTrafficPolicy"},
		{"health check port", func(s *svc) { lb(s); s.Spec.ExternalTrafficPolicy = "Local"; s.Spec.HealthCheckNodePort = 31000 }, nil, "", ""},
		{"health check port out of range", func(s *svc) { lb(s); s.Spec.ExternalTrafficPolicy = "Local"; s.Spec.HealthCheckNodePort = 70000 }, nil, field.TypeInvalid, "spec.healthCheckNodePort"},
		{"health check port with Cluster policy", func(s *svc) { lb(s); s.Spec.HealthCheckNodePort = 31000 }, nil, field.TypeInvalid, "spec.healthCheckNodePort"},
		{"internal policy missing", nil, func(s *svc) { s.Spec.InternalTrafficPolicy = nil }, field.TypeRequired, "spec.internalTrafficPolicy"},
		{"bad internal policy", func(s *svc) { s.Spec.InternalTrafficPolicy = ptr[corev1.ServiceInternalTrafficPolicy]("Node") }, nil, field.TypeNotSupported, "spec.internalTrafficPolicy"},
		{"traffic distribution", func(s *svc) { s.Spec.TrafficDistribution = ptr("PreferSameZone") }, nil, "", ""},
		{"bad traffic distribution", func(s *svc) { s.Spec.TrafficDistribution = ptr("Anywhere") }, nil, field.TypeNotSupported, "spec.trafficDistribution"},
	}
	runValidate(t, cases)
}

func runValidate(t *testing.T, cases []struct {
	name   string
	create func(*corev1.Service)
	mutate func(*corev1.Service)
	typ    field.Type
	field  string
}) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := stored(func(s *corev1.Service) {
				if c.create != nil {
					c.create(s)
				}
			})
			if c.mutate != nil {
				c.mutate(s)
			}
			if msg := corevalidation.Expect(validate(s), c.typ, c.field); msg != "" {
				t.Error(msg)
			}
		})
	}
}

func TestValidateUpdate(t *testing.T) {
	withIP := func(s *corev1.Service) { s.Spec.ClusterIP = "10.0.0.5" }
	lbLocal := func(s *corev1.Service) {
		s.Spec.Type, s.Spec.ExternalTrafficPolicy, s.Spec.HealthCheckNodePort = "LoadBalancer", "Local", 31000
		s.Spec.LoadBalancerClass = ptr("example.com/a")
	}
	cases := []struct {
		name   string
		old    func(*corev1.Service)
		mutate func(*corev1.Service)
		typ    field.Type
		field  string
	}{
		{"unchanged", withIP, func(*corev1.Service) {}, "", ""},
		{"first cluster IP", func(*corev1.Service) {}, withIP, "", ""},
		{"cluster IP changed", withIP, func(s *corev1.Service) { s.Spec.ClusterIP = "10.0.0.6" }, field.TypeInvalid, "spec.clusterIPs[0]"},
		{"cluster IP cleared", withIP, func(s *corev1.Service) { s.Spec.ClusterIP, s.Spec.ClusterIPs = "", nil }, "", ""},
		{"add secondary IP", withIP, func(s *corev1.Service) {
			s.Spec.ClusterIPs = []string{"10.0.0.5", "fd00::5"}
			s.Spec.IPFamilies = families(corev1.IPv4Protocol, corev1.IPv6Protocol)
			s.Spec.IPFamilyPolicy = ptr(corev1.IPFamilyPolicyRequireDualStack)
		}, "", ""},
		{"family changed", func(*corev1.Service) {}, func(s *corev1.Service) { s.Spec.IPFamilies = families(corev1.IPv6Protocol) }, field.TypeInvalid, "spec.ipFamilies[0]"},
		{"headless to ExternalName", func(s *corev1.Service) { s.Spec.ClusterIP = "None" }, func(s *corev1.Service) {
			s.Spec.Type, s.Spec.ExternalName = "ExternalName", "a.example.com"
		}, "", ""},
		{"class changed", lbLocal, func(s *corev1.Service) { s.Spec.LoadBalancerClass = ptr("example.com/b") }, field.TypeInvalid, "spec.loadBalancerClass"},
		{"health check port changed", lbLocal, func(s *corev1.Service) { s.Spec.HealthCheckNodePort = 31001 }, field.TypeForbidden, "spec.healthCheckNodePort"},
		{"bad status ip", lbLocal, func(s *corev1.Service) {
			s.Status.LoadBalancer.Ingress = []corev1.LoadBalancerIngress{{IP: "1.2.3"}}
		}, field.TypeInvalid, "status.loadBalancer.ingress[0].ip"},
		{"status hostname is an IP", lbLocal, func(s *corev1.Service) {
			s.Status.LoadBalancer.Ingress = []corev1.LoadBalancerIngress{{Hostname: "1.2.3.4"}}
		}, field.TypeInvalid, "status.loadBalancer.ingress[0].hostname"},
		{"status ipMode without ip", lbLocal, func(s *corev1.Service) {
			s.Status.LoadBalancer.Ingress = []corev1.LoadBalancerIngress{{Hostname: "lb.example.com", IPMode: ptr(corev1.LoadBalancerIPModeVIP)}}
		}, field.TypeForbidden, "status.loadBalancer.ingress[0].ipMode"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			old := stored(c.old)
			s := update(old, c.mutate)
			if msg := corevalidation.Expect(validateUpdate(s, old), c.typ, c.field); msg != "" {
				t.Error(msg)
			}
		})
	}
}

// TestValidateStatusUpdate covers a /status write, which skips prepareForUpdate.
func TestValidateStatusUpdate(t *testing.T) {
	old := stored(func(*corev1.Service) {})
	s := stored(func(*corev1.Service) {})
	s.Status.LoadBalancer.Ingress = []corev1.LoadBalancerIngress{{IP: "1.2.3.4"}}
	if msg := corevalidation.Expect(validateUpdate(s, old), field.TypeForbidden, "status.loadBalancer.ingress"); msg != "" {
		t.Error(msg)
	}
	s.Status.LoadBalancer.Ingress = nil
	if msg := corevalidation.Expect(validateUpdate(s, old), "", ""); msg != "" {
		t.Error(msg)
	}
}
