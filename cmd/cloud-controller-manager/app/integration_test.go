package app_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/client"
	cloud "platform.io/client/cloudprovider"

	"platform.io/platform/test/simcloud"
	harnesspkg "platform.io/platform/test/simcloud/harness"
)

// eventually polls cond until it reports "" or the deadline passes.
func eventually(t *testing.T, d time.Duration, what string, cond func() string) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		msg := cond()
		if msg == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not reached within %v: %s", what, d, msg)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// harness is the shared in-process harness with the test's helpers.
type harness struct {
	*harnesspkg.Harness
	set   *client.Set
	cloud *simcloud.Cloud
}

func start(t *testing.T) *harness {
	t.Helper()
	h := harnesspkg.Start(t, nil)
	return &harness{Harness: h, set: h.Clients, cloud: h.Cloud}
}

// registerNode creates a node as an agent does for an external cloud:
// uninitialized taint, Ready condition as given.
func (h *harness) registerNode(t *testing.T, name string, ready corev1.ConditionStatus) {
	t.Helper()
	ctx := context.Background()
	n := &corev1.Node{ObjectMeta: meta.ObjectMeta{Name: name}, Spec: corev1.NodeSpec{Taints: []corev1.Taint{
		{Key: corev1.TaintNodeUninitialized, Value: "true", Effect: corev1.TaintEffectNoSchedule}}}}
	n.Status.Addresses = []corev1.NodeAddress{{Type: corev1.NodeHostName, Address: name}}
	n.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: ready, LastHeartbeatTime: meta.Now()}}
	if _, err := h.set.Nodes.Create(ctx, n, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
}

func (h *harness) node(t *testing.T, name string) *corev1.Node {
	t.Helper()
	n, err := h.set.Nodes.Get(context.Background(), name, meta.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func hasTaint(n *corev1.Node, key string) bool {
	return slices.ContainsFunc(n.Spec.Taints, func(t corev1.Taint) bool { return t.Key == key })
}

// simulatedIP returns a made-up endpoint address (the API refuses
// loopback ones in Endpoints) and the loopback address the simulated
// cloud's network reaches it at.
func simulatedIP() (endpoint, listen string) {
	ip := net.IPv4(10, byte(100+rand.IntN(150)), byte(rand.IntN(256)), byte(1+rand.IntN(254)))
	return ip.String(), simcloud.Loopback(ip).String()
}

// echoServer answers each line with "<tag>:<line>" on the simulated
// network; it returns the endpoint address to put in Endpoints and the
// port.
func echoServer(t *testing.T, tag string) (string, int) {
	t.Helper()
	endpoint, listen := simulatedIP()
	ln, err := net.Listen("tcp", net.JoinHostPort(listen, "0"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				sc := bufio.NewScanner(c)
				for sc.Scan() {
					if _, err := io.WriteString(c, tag+":"+sc.Text()+"\n"); err != nil {
						return
					}
				}
			}()
		}
	}()
	return endpoint, ln.Addr().(*net.TCPAddr).Port
}

// roundTrip sends one line to addr and returns the answer.
func roundTrip(addr, line string) (string, error) {
	c, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err != nil {
		return "", err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(2 * time.Second))
	if _, err := io.WriteString(c, line+"\n"); err != nil {
		return "", err
	}
	got, err := bufio.NewReader(c).ReadString('\n')
	return strings.TrimSpace(got), err
}

// lbService is a selector-less LoadBalancer Service with Endpoints at
// ip:port for its port "tcp".
func (h *harness) lbService(t *testing.T, name string, port int32, ip string, target int, class *string) {
	t.Helper()
	ctx := context.Background()
	svc := &corev1.Service{ObjectMeta: meta.ObjectMeta{Name: name}, Spec: corev1.ServiceSpec{Type: corev1.ServiceTypeLoadBalancer,
		LoadBalancerClass: class, Ports: []corev1.ServicePort{{Name: "tcp", Port: port, Protocol: corev1.ProtocolTCP}}}}
	if _, err := h.set.Services.Namespace("default").Create(ctx, svc, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	ep := &corev1.Endpoints{ObjectMeta: meta.ObjectMeta{Name: name}, Subsets: []corev1.EndpointSubset{{
		Addresses: []corev1.EndpointAddress{{IP: ip}}, Ports: []corev1.EndpointPort{{Name: "tcp", Port: int32(target), Protocol: corev1.ProtocolTCP}}}}}
	if _, err := h.set.Endpoints.Namespace("default").Create(ctx, ep, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
}

func (h *harness) ingress(t *testing.T, name string) (string, *corev1.Service) {
	t.Helper()
	svc, err := h.set.Services.Namespace("default").Get(context.Background(), name, meta.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(svc.Status.LoadBalancer.Ingress) == 0 {
		return "", svc
	}
	return svc.Status.LoadBalancer.Ingress[0].IP, svc
}

// TestCloudNodeInitializes: a node registered with the uninitialized taint
// gets its provider ID, addresses and topology labels from the plugin, and
// loses the taint.
func TestCloudNodeInitializes(t *testing.T) {
	t.Parallel()
	h := start(t)
	h.registerNode(t, "n-1", corev1.ConditionTrue)
	eventually(t, 20*time.Second, "node n-1 initialized", func() string {
		n := h.node(t, "n-1")
		if hasTaint(n, corev1.TaintNodeUninitialized) {
			return "still tainted"
		}
		want := map[string]string{corev1.LabelTopologyZone: "z2", corev1.LabelTopologyRegion: "region-1", corev1.LabelInstanceType: "sim.standard"}
		for k, v := range want {
			if n.Labels[k] != v {
				return fmt.Sprintf("label %s = %q", k, n.Labels[k])
			}
		}
		if n.Spec.ProviderID != "simcloud://n-1" {
			return "providerID " + n.Spec.ProviderID
		}
		if !slices.Contains(n.Status.Addresses, corev1.NodeAddress{Type: corev1.NodeInternalIP, Address: "172.16.0.2"}) {
			return fmt.Sprintf("addresses %v", n.Status.Addresses)
		}
		return ""
	})
}

// zoneless is the simulated cloud with instance metadata that leaves the
// zone to GetZone.
type zoneless struct{ *simcloud.Cloud }

func (z zoneless) Instances() (cloud.Instances, bool) { return z, true }

func (z zoneless) InstanceMetadata(ctx context.Context, n cloud.Node) (*cloud.InstanceMetadata, error) {
	md, err := z.Cloud.InstanceMetadata(ctx, n)
	if md != nil {
		md.Zone = cloud.Zone{}
	}
	return md, err
}

// TestCloudNodeZoneFromZones: a provider whose instance metadata has no
// zone gives it through Zones.
func TestCloudNodeZoneFromZones(t *testing.T) {
	t.Parallel()
	h := start(t)
	h.StopProvider()
	h.Served = zoneless{h.cloud}
	h.StartProvider()
	h.registerNode(t, "n-0", corev1.ConditionTrue)
	eventually(t, 20*time.Second, "node n-0 zoned", func() string {
		n := h.node(t, "n-0")
		if n.Labels[corev1.LabelTopologyZone] != "z1" || n.Labels[corev1.LabelTopologyRegion] != "region-1" || hasTaint(n, corev1.TaintNodeUninitialized) {
			return fmt.Sprintf("labels %v, taints %v", n.Labels, n.Spec.Taints)
		}
		return ""
	})
}

// TestCloudNodeLifecycle: a node that is not ready gets the shutdown taint
// while its instance is shut down, loses it when the instance starts, and
// is deleted when the instance is deleted.
func TestCloudNodeLifecycle(t *testing.T) {
	t.Parallel()
	h := start(t)
	h.registerNode(t, "n-2", corev1.ConditionUnknown)
	eventually(t, 20*time.Second, "node initialized", func() string {
		if hasTaint(h.node(t, "n-2"), corev1.TaintNodeUninitialized) {
			return "still uninitialized"
		}
		return ""
	})
	if err := h.cloud.SetShutdown("n-2", true); err != nil {
		t.Fatal(err)
	}
	eventually(t, 20*time.Second, "shutdown taint", func() string {
		if !hasTaint(h.node(t, "n-2"), corev1.TaintNodeShutdown) {
			return "no shutdown taint"
		}
		return ""
	})
	if err := h.cloud.SetShutdown("n-2", false); err != nil {
		t.Fatal(err)
	}
	eventually(t, 20*time.Second, "shutdown taint removed", func() string {
		if hasTaint(h.node(t, "n-2"), corev1.TaintNodeShutdown) {
			return "shutdown taint still there"
		}
		return ""
	})
	if err := h.cloud.DeleteInstance("n-2"); err != nil {
		t.Fatal(err)
	}
	eventually(t, 20*time.Second, "node deleted", func() string {
		_, err := h.set.Nodes.Get(context.Background(), "n-2", meta.GetOptions{})
		if !apierrors.IsNotFound(err) {
			return fmt.Sprintf("get: %v", err)
		}
		return ""
	})
}

// TestRoutesFollowPodCIDRs: a node's pod CIDR gets a route to it, removed
// with the node.
func TestRoutesFollowPodCIDRs(t *testing.T) {
	t.Parallel()
	h := start(t)
	h.registerNode(t, "n-0", corev1.ConditionTrue)
	eventually(t, 20*time.Second, "pod CIDR set", func() string {
		n := h.node(t, "n-0")
		n.Spec.PodCIDR, n.Spec.PodCIDRs = "10.244.5.0/24", []string{"10.244.5.0/24"}
		if _, err := h.set.Nodes.Update(context.Background(), n, meta.WriteOptions{}); err != nil {
			return err.Error()
		}
		return ""
	})
	routes := func() []cloud.Route {
		r, _ := h.cloud.ListRoutes(context.Background(), "it")
		return r
	}
	eventually(t, 20*time.Second, "route created", func() string {
		if r := routes(); len(r) != 1 || r[0].TargetNode != "n-0" || r[0].DestinationCIDR != "10.244.5.0/24" {
			return fmt.Sprintf("routes %v", r)
		}
		return ""
	})
	if err := h.set.Nodes.Delete(context.Background(), "n-0", nil); err != nil {
		t.Fatal(err)
	}
	eventually(t, 20*time.Second, "route deleted", func() string {
		if r := routes(); len(r) != 0 {
			return fmt.Sprintf("routes %v", r)
		}
		return ""
	})
}

// TestLoadBalancerCarriesTraffic: a selector-less LoadBalancer Service gets
// an ingress address and the cleanup finalizer, a TCP connection to the
// address reaches its endpoints, a port change moves the listener, another
// loadBalancerClass is left alone, and deleting the service frees the
// address and lets the service go.
func TestLoadBalancerCarriesTraffic(t *testing.T) {
	t.Parallel()
	h := start(t)
	h.registerNode(t, "n-0", corev1.ConditionTrue)
	ip, port := echoServer(t, "backend")
	other := "example.com/other"
	h.lbService(t, "other", 80, ip, port, &other)
	h.lbService(t, "web", 80, ip, port, nil)
	var addr string
	eventually(t, 20*time.Second, "ingress", func() string {
		got, svc := h.ingress(t, "web")
		if got == "" {
			return "no ingress"
		}
		if !slices.Contains(svc.Finalizers, corev1.FinalizerLoadBalancerCleanup) {
			return fmt.Sprintf("finalizers %v", svc.Finalizers)
		}
		addr = got
		return ""
	})
	if got, err := roundTrip(net.JoinHostPort(addr, "80"), "hello"); err != nil || got != "backend:hello" {
		t.Fatalf("through the load balancer: %q, %v", got, err)
	}
	if got, svc := h.ingress(t, "other"); got != "" || len(svc.Finalizers) != 0 {
		t.Errorf("service of another class: ingress %q, finalizers %v", got, svc.Finalizers)
	}

	udp := &corev1.Service{ObjectMeta: meta.ObjectMeta{Name: "udp"}, Spec: corev1.ServiceSpec{Type: corev1.ServiceTypeLoadBalancer,
		Ports: []corev1.ServicePort{{Port: 53, Protocol: corev1.ProtocolUDP}}}}
	if _, err := h.set.Services.Namespace("default").Create(context.Background(), udp, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, 20*time.Second, "the provider's refusal reported", func() string {
		evs, err := h.set.Events.Namespace("default").List(context.Background(), meta.ListOptions{})
		if err != nil {
			return err.Error()
		}
		for _, e := range evs.Items {
			if e.InvolvedObject.Name == "udp" && e.Reason == "SyncLoadBalancerFailed" && e.Type == corev1.EventTypeWarning {
				return ""
			}
		}
		return "no SyncLoadBalancerFailed event for udp"
	})
	if got, _ := h.ingress(t, "udp"); got != "" {
		t.Errorf("a refused load balancer has ingress %s", got)
	}

	h.registerNode(t, "n-1", corev1.ConditionTrue)
	eventually(t, 20*time.Second, "the new node behind the load balancer", func() string {
		for _, lb := range h.cloud.ListLoadBalancers() {
			if lb.Name == "web" && !slices.Equal(lb.Nodes, []string{"n-0", "n-1"}) {
				return fmt.Sprintf("nodes %v", lb.Nodes)
			}
		}
		return ""
	})

	svc, err := h.set.Services.Namespace("default").Get(context.Background(), "web", meta.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	svc.Spec.Ports[0].Port = 8080
	if _, err := h.set.Services.Namespace("default").Update(context.Background(), svc, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, 20*time.Second, "listener moved to 8080", func() string {
		if got, err := roundTrip(net.JoinHostPort(addr, "8080"), "again"); err != nil || got != "backend:again" {
			return fmt.Sprintf("%q, %v", got, err)
		}
		if _, err := roundTrip(net.JoinHostPort(addr, "80"), "old"); err == nil {
			return "port 80 still open"
		}
		return ""
	})

	h.lbService(t, "retyped", 80, ip, port, nil)
	eventually(t, 20*time.Second, "ingress of retyped", func() string {
		if got, _ := h.ingress(t, "retyped"); got == "" {
			return "no ingress"
		}
		return ""
	})
	eventually(t, 20*time.Second, "retyped made ClusterIP", func() string {
		svc, err := h.set.Services.Namespace("default").Get(context.Background(), "retyped", meta.GetOptions{})
		if err != nil {
			return err.Error()
		}
		svc.Spec.Type = corev1.ServiceTypeClusterIP
		for i := range svc.Spec.Ports {
			svc.Spec.Ports[i].NodePort = 0
		}
		if _, err := h.set.Services.Namespace("default").Update(context.Background(), svc, meta.WriteOptions{}); err != nil {
			return err.Error()
		}
		return ""
	})
	eventually(t, 20*time.Second, "retyped cleaned up", func() string {
		got, svc := h.ingress(t, "retyped")
		if got != "" || len(svc.Finalizers) != 0 {
			return fmt.Sprintf("ingress %q, finalizers %v", got, svc.Finalizers)
		}
		for _, lb := range h.cloud.ListLoadBalancers() {
			if lb.Name == "retyped" {
				return "load balancer still there"
			}
		}
		return ""
	})

	if err := h.set.Services.Namespace("default").Delete(context.Background(), "web", nil); err != nil {
		t.Fatal(err)
	}
	eventually(t, 20*time.Second, "service and load balancer gone", func() string {
		_, err := h.set.Services.Namespace("default").Get(context.Background(), "web", meta.GetOptions{})
		if !apierrors.IsNotFound(err) {
			return fmt.Sprintf("service: %v", err)
		}
		if lbs := h.cloud.ListLoadBalancers(); len(lbs) != 0 {
			return fmt.Sprintf("load balancers %v", lbs)
		}
		return ""
	})
	if _, err := roundTrip(net.JoinHostPort(addr, "8080"), "gone"); err == nil {
		t.Error("the freed address still answers")
	}
	evs, err := h.set.Events.Namespace("default").List(context.Background(), meta.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	reasons := map[string]bool{}
	for _, e := range evs.Items {
		if e.InvolvedObject.Name == "web" {
			reasons[e.Reason] = true
		}
	}
	for _, r := range []string{"EnsuringLoadBalancer", "EnsuredLoadBalancer", "UpdatedLoadBalancer", "DeletingLoadBalancer", "DeletedLoadBalancer"} {
		if !reasons[r] {
			t.Errorf("no %s event; events: %v", r, reasons)
		}
	}
}

// TestProviderRestartUnderLoad: services created while the plugin is down
// get their load balancers once it is back; the loops survive.
func TestProviderRestartUnderLoad(t *testing.T) {
	t.Parallel()
	h := start(t)
	h.registerNode(t, "n-0", corev1.ConditionTrue)
	ip, port := echoServer(t, "b")
	h.lbService(t, "before", 80, ip, port, nil)
	eventually(t, 20*time.Second, "first ingress", func() string {
		if got, _ := h.ingress(t, "before"); got == "" {
			return "no ingress"
		}
		return ""
	})
	h.StopProvider()
	const n = 10
	for i := range n {
		h.lbService(t, fmt.Sprintf("during-%d", i), 80, ip, port, nil)
	}
	eventually(t, 20*time.Second, "every new service failed against the dead socket", func() string {
		if got := h.CallErrors("EnsureLoadBalancer"); got < n {
			return fmt.Sprintf("%v failed EnsureLoadBalancer calls", got)
		}
		return ""
	})
	if got, _ := h.ingress(t, "during-0"); got != "" {
		t.Fatalf("ingress %s while the provider is down", got)
	}
	h.StartProvider()
	eventually(t, 60*time.Second, "every service has a working load balancer", func() string {
		for i := range n {
			got, _ := h.ingress(t, fmt.Sprintf("during-%d", i))
			if got == "" {
				return fmt.Sprintf("during-%d has no ingress", i)
			}
			if ans, err := roundTrip(net.JoinHostPort(got, "80"), "x"); err != nil || ans != "b:x" {
				return fmt.Sprintf("during-%d: %q, %v", i, ans, err)
			}
		}
		return ""
	})
}
