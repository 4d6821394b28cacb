package endpoints

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/intstr"
	"platform.io/client/api/meta"
)

func testPod(name, ip string, ready bool, mods ...func(*corev1.Pod)) *corev1.Pod {
	st := corev1.ConditionFalse
	if ready {
		st = corev1.ConditionTrue
	}
	p := &corev1.Pod{
		ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "ns", UID: meta.UID("uid-" + name), Labels: map[string]string{"app": "web"}},
		Spec: corev1.PodSpec{NodeName: "n1", Containers: []corev1.Container{{Name: "c", Ports: []corev1.ContainerPort{
			{Name: "http", ContainerPort: 8080, Protocol: corev1.ProtocolTCP}}}}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, PodIP: ip, Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: st}}},
	}
	for _, m := range mods {
		m(p)
	}
	return p
}

func addr(name, ip string) corev1.EndpointAddress {
	node := "n1"
	return corev1.EndpointAddress{IP: ip, NodeName: &node, TargetRef: &corev1.ObjectReference{Kind: "Pod", Namespace: "ns", Name: name, UID: meta.UID("uid-" + name)}}
}

func TestSubsetsFor(t *testing.T) {
	svc := func(mods ...func(*corev1.Service)) *corev1.Service {
		s := &corev1.Service{ObjectMeta: meta.ObjectMeta{Name: "web", Namespace: "ns"}, Spec: corev1.ServiceSpec{
			Selector: map[string]string{"app": "web"},
			Ports:    []corev1.ServicePort{{Name: "http", Port: 80, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromString("http")}},
		}}
		for _, m := range mods {
			m(s)
		}
		return s
	}
	httpPort := []corev1.EndpointPort{{Name: "http", Port: 8080, Protocol: corev1.ProtocolTCP}}
	now := meta.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	cases := []struct {
		name string
		svc  *corev1.Service
		pods []*corev1.Pod
		want []corev1.EndpointSubset
	}{
		{"ready and not ready apart, named port resolved", svc(),
			[]*corev1.Pod{testPod("b", "10.0.0.2", false), testPod("a", "10.0.0.1", true)},
			[]corev1.EndpointSubset{{Addresses: []corev1.EndpointAddress{addr("a", "10.0.0.1")},
				NotReadyAddresses: []corev1.EndpointAddress{addr("b", "10.0.0.2")}, Ports: httpPort}}},
		{"publishNotReadyAddresses lists every pod ready", svc(func(s *corev1.Service) { s.Spec.PublishNotReadyAddresses = true }),
			[]*corev1.Pod{testPod("b", "10.0.0.2", false), testPod("a", "10.0.0.1", true)},
			[]corev1.EndpointSubset{{Addresses: []corev1.EndpointAddress{addr("a", "10.0.0.1"), addr("b", "10.0.0.2")}, Ports: httpPort}}},
		{"no IP, finished and terminating pods are left out", svc(),
			[]*corev1.Pod{testPod("noip", "", true), testPod("done", "10.0.0.3", true, func(p *corev1.Pod) { p.Status.Phase = corev1.PodSucceeded }),
				testPod("going", "10.0.0.4", true, func(p *corev1.Pod) { p.DeletionTimestamp = &now }), testPod("a", "10.0.0.1", true)},
			[]corev1.EndpointSubset{{Addresses: []corev1.EndpointAddress{addr("a", "10.0.0.1")}, Ports: httpPort}}},
		{"a pod without the named port is left out of that port", svc(func(s *corev1.Service) {
			s.Spec.Ports = append(s.Spec.Ports, corev1.ServicePort{Name: "metrics", Port: 9090, TargetPort: intstr.FromInt(9100)})
		}), []*corev1.Pod{testPod("a", "10.0.0.1", true), testPod("x", "10.0.0.9", true, func(p *corev1.Pod) { p.Spec.Containers[0].Ports = nil })},
			[]corev1.EndpointSubset{
				{Addresses: []corev1.EndpointAddress{addr("a", "10.0.0.1")}, Ports: httpPort},
				{Addresses: []corev1.EndpointAddress{addr("a", "10.0.0.1"), addr("x", "10.0.0.9")}, Ports: []corev1.EndpointPort{{Name: "metrics", Port: 9100, Protocol: corev1.ProtocolTCP}}},
			}},
		{"ports of the same pods merge into one subset", svc(func(s *corev1.Service) {
			s.Spec.Ports = append(s.Spec.Ports, corev1.ServicePort{Name: "admin", Port: 81})
		}), []*corev1.Pod{testPod("a", "10.0.0.1", true)},
			[]corev1.EndpointSubset{{Addresses: []corev1.EndpointAddress{addr("a", "10.0.0.1")},
				Ports: []corev1.EndpointPort{{Name: "admin", Port: 81, Protocol: corev1.ProtocolTCP}, httpPort[0]}}}},
		{"headless without ports lists addresses alone", svc(func(s *corev1.Service) { s.Spec.Ports, s.Spec.ClusterIP = nil, corev1.ClusterIPNone }),
			[]*corev1.Pod{testPod("a", "10.0.0.1", true, func(p *corev1.Pod) { p.Spec.Hostname, p.Spec.Subdomain = "a", "web" })},
			[]corev1.EndpointSubset{{Addresses: []corev1.EndpointAddress{func() corev1.EndpointAddress { a := addr("a", "10.0.0.1"); a.Hostname = "a"; return a }()}}}},
		{"no pods, no subsets", svc(), nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, subsetsFor(tc.svc, tc.pods)); diff != "" {
				t.Errorf("subsets (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTriggerTracker(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	svc := &corev1.Service{ObjectMeta: meta.ObjectMeta{Name: "web", CreationTimestamp: meta.NewTime(t0)}}
	readyAt := func(p *corev1.Pod, at time.Time) *corev1.Pod {
		p.Status.Conditions[0].LastTransitionTime = meta.NewTime(at)
		return p
	}
	tr := newTriggerTracker()
	// sync computes and, as after a successful write, records.
	sync := func(pods ...*corev1.Pod) time.Time {
		at, record := tr.compute("ns/web", svc, pods)
		record()
		return at
	}
	a := readyAt(testPod("a", "10.0.0.1", true), t0.Add(time.Minute))
	if got, _ := tr.compute("ns/web", svc, []*corev1.Pod{a}); !got.Equal(t0) {
		t.Errorf("a write that failed keeps the trigger: %v, want %v", got, t0)
	}
	if got := sync(a); !got.Equal(t0) {
		t.Errorf("first sync: %v, want the service's creation %v", got, t0)
	}
	if got := sync(a); !got.IsZero() {
		t.Errorf("no change: %v, want zero", got)
	}
	b := readyAt(testPod("b", "10.0.0.2", true), t0.Add(3*time.Minute))
	a2 := readyAt(testPod("a", "10.0.0.1", false), t0.Add(2*time.Minute))
	if got := sync(a2, b); !got.Equal(t0.Add(2 * time.Minute)) {
		t.Errorf("two pods changed: %v, want the earliest", got)
	}
}

func TestOptionsValidate(t *testing.T) {
	o := NewOptions()
	if o.Workers != 5 || len(o.Validate()) != 0 {
		t.Errorf("defaults %+v invalid: %v", o, o.Validate())
	}
	o.Workers = 0
	if errs := o.Validate(); len(errs) != 1 {
		t.Errorf("0 workers: %v", errs)
	}
}
