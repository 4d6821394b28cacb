package service

import (
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

func TestServiceTableRow(t *testing.T) {
	created := meta.NewTime(time.Now().Add(-4 * 24 * time.Hour))
	svc := func(typ corev1.ServiceType, mod func(*corev1.Service)) *corev1.Service {
		s := &corev1.Service{ObjectMeta: meta.ObjectMeta{Name: "web", CreationTimestamp: created}}
		s.Spec.Type = typ
		s.Spec.ClusterIP, s.Spec.ClusterIPs = "10.96.0.10", []string{"10.96.0.10", "fd00::10"}
		s.Spec.Ports = []corev1.ServicePort{{Port: 80, Protocol: corev1.ProtocolTCP}}
		s.Spec.Selector = map[string]string{"app": "web", "tier": "front"}
		if mod != nil {
			mod(s)
		}
		return s
	}
	cases := []struct {
		name                         string
		svc                          *corev1.Service
		clusterIP, externalIP, ports string
	}{
		{"cluster IP", svc(corev1.ServiceTypeClusterIP, nil), "10.96.0.10", "<none>", "80/TCP"},
		{"external IPs", svc(corev1.ServiceTypeClusterIP, func(s *corev1.Service) { s.Spec.ExternalIPs = []string{"1.2.3.4", "1.2.3.5"} }),
			"10.96.0.10", "1.2.3.4,1.2.3.5", "80/TCP"},
		{"headless without ports", svc(corev1.ServiceTypeClusterIP, func(s *corev1.Service) {
			s.Spec.ClusterIP, s.Spec.ClusterIPs, s.Spec.Ports = "None", []string{"None"}, nil
		}), "None", "<none>", "<none>"},
		{"node port", svc(corev1.ServiceTypeNodePort, func(s *corev1.Service) {
			s.Spec.Ports = []corev1.ServicePort{{Port: 80, NodePort: 30080, Protocol: corev1.ProtocolTCP}, {Port: 53, NodePort: 30053, Protocol: corev1.ProtocolUDP}}
		}), "10.96.0.10", "<none>", "80:30080/TCP,53:30053/UDP"},
		{"load balancer pending", svc(corev1.ServiceTypeLoadBalancer, nil), "10.96.0.10", "<pending>", "80/TCP"},
		{"load balancer", svc(corev1.ServiceTypeLoadBalancer, func(s *corev1.Service) {
			s.Status.LoadBalancer.Ingress = []corev1.LoadBalancerIngress{{IP: "5.6.7.8"}, {Hostname: "lb.example.com"}, {IP: "5.6.7.8"}}
			s.Spec.ExternalIPs = []string{"1.2.3.4"}
		}), "10.96.0.10", "5.6.7.8,lb.example.com,1.2.3.4", "80/TCP"},
		{"external name", svc(corev1.ServiceTypeExternalName, func(s *corev1.Service) {
			s.Spec.ExternalName, s.Spec.ClusterIP, s.Spec.ClusterIPs, s.Spec.Ports = "db.example.com", "", nil, nil
		}), "<none>", "db.example.com", "<none>"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cells := tableRow(c.svc)
			if len(cells) != len(tableColumns.Columns) {
				t.Fatalf("%d cells for %d columns", len(cells), len(tableColumns.Columns))
			}
			want := []any{"web", string(c.svc.Spec.Type), c.clusterIP, c.externalIP, c.ports, "4d", "app=web,tier=front"}
			for i := range want {
				if cells[i] != want[i] {
					t.Errorf("cells %q, want %q", cells, want)
					break
				}
			}
		})
	}
}
