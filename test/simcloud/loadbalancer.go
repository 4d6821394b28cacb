package simcloud

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	cloud "platform.io/client/cloudprovider"
)

// dialTimeout bounds a connection attempt to a backend.
const dialTimeout = 5 * time.Second

// ErrProtocol: a load balancer port uses a protocol other than TCP.
var ErrProtocol = errors.New("simcloud: load balancers carry TCP only")

// loadBalancer is one service's load balancer: an address and a listener
// per port. Its fields change only under Cloud.mu.
type loadBalancer struct {
	namespace, name string
	ip              netip.Addr
	listeners       map[int32]*listener
	nodes           []string
}

func lbKey(svc *cloud.Service) string { return svc.Namespace + "/" + svc.Name }

func (lb *loadBalancer) status() *cloud.LoadBalancerStatus {
	return &cloud.LoadBalancerStatus{Ingress: []cloud.Ingress{{IP: lb.ip.String()}}}
}

func (lb *loadBalancer) close() {
	for port, l := range lb.listeners {
		l.close()
		delete(lb.listeners, port)
	}
}

func (c *Cloud) GetLoadBalancer(_ context.Context, _ string, svc *cloud.Service) (*cloud.LoadBalancerStatus, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	lb, ok := c.lbs[lbKey(svc)]
	if !ok {
		return nil, false, nil
	}
	return lb.status(), true, nil
}

// EnsureLoadBalancer allocates the service's address (spec.loadBalancerIP
// when it is in range and free), and listens on each of its ports,
// closing listeners of ports the service no longer has.
func (c *Cloud) EnsureLoadBalancer(_ context.Context, _ string, svc *cloud.Service, nodes []cloud.Node) (*cloud.LoadBalancerStatus, error) {
	for _, p := range svc.Ports {
		if p.Protocol != "TCP" {
			return nil, fmt.Errorf("port %d/%s: %w", p.Port, p.Protocol, ErrProtocol)
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	key := lbKey(svc)
	lb, ok := c.lbs[key]
	if !ok {
		ip, err := c.allocateLocked(svc.LoadBalancerIP)
		if err != nil {
			return nil, err
		}
		lb = &loadBalancer{namespace: svc.Namespace, name: svc.Name, ip: ip, listeners: map[int32]*listener{}}
		c.lbs[key] = lb
		c.lg.Info("load balancer created", zap.String("service", key), zap.Stringer("ip", ip))
	}
	lb.nodes = nodeNames(nodes)
	want := map[int32]bool{}
	for _, p := range svc.Ports {
		want[p.Port] = true
		if l, ok := lb.listeners[p.Port]; ok {
			l.portName.Store(&p.Name)
			continue
		}
		l, err := c.listen(lb, p)
		if err != nil {
			return nil, err
		}
		lb.listeners[p.Port] = l
	}
	for port, l := range lb.listeners {
		if !want[port] {
			l.close()
			delete(lb.listeners, port)
		}
	}
	return lb.status(), c.saveLocked()
}

// UpdateLoadBalancer records the load balancer's nodes.
func (c *Cloud) UpdateLoadBalancer(_ context.Context, _ string, svc *cloud.Service, nodes []cloud.Node) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	lb, ok := c.lbs[lbKey(svc)]
	if !ok {
		return fmt.Errorf("simcloud: no load balancer for %s", lbKey(svc))
	}
	lb.nodes = nodeNames(nodes)
	return c.saveLocked()
}

// EnsureLoadBalancerDeleted closes the listeners and frees the address.
func (c *Cloud) EnsureLoadBalancerDeleted(_ context.Context, _ string, svc *cloud.Service) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	key := lbKey(svc)
	lb, ok := c.lbs[key]
	if !ok {
		return nil
	}
	lb.close()
	delete(c.used, lb.ip)
	delete(c.lbs, key)
	c.lg.Info("load balancer deleted", zap.String("service", key), zap.Stringer("ip", lb.ip))
	return c.saveLocked()
}

func nodeNames(nodes []cloud.Node) []string {
	out := make([]string, len(nodes))
	for i, n := range nodes {
		out[i] = n.Name
	}
	return out
}

// allocateLocked returns want when it is a free address of the range, or
// the lowest free address when want is empty.
func (c *Cloud) allocateLocked(want string) (netip.Addr, error) {
	if want != "" {
		ip, err := netip.ParseAddr(want)
		if err != nil || !c.lbRange.Contains(ip) || c.used[ip] {
			return netip.Addr{}, fmt.Errorf("simcloud: loadBalancerIP %s is not a free address of %s", want, c.lbRange)
		}
		c.used[ip] = true
		return ip, nil
	}
	for ip := c.lbRange.Addr().Next(); c.lbRange.Contains(ip); ip = ip.Next() {
		if !c.used[ip] && c.lbRange.Contains(ip.Next()) { // not the last (broadcast) address
			c.used[ip] = true
			return ip, nil
		}
	}
	return netip.Addr{}, fmt.Errorf("simcloud: no free load balancer address in %s", c.lbRange)
}

// listener carries one load balancer port. mu guards conns.
type listener struct {
	ln       net.Listener
	portName atomic.Pointer[string]
	mu       sync.Mutex
	conns    map[net.Conn]bool
	next     atomic.Uint64
}

// listen opens the port's listener and serves it until closed.
func (c *Cloud) listen(lb *loadBalancer, p cloud.ServicePort) (*listener, error) {
	ln, err := net.Listen("tcp", net.JoinHostPort(lb.ip.String(), strconv.Itoa(int(p.Port))))
	if err != nil {
		return nil, fmt.Errorf("simcloud: load balancer %s/%s port %d: %w", lb.namespace, lb.name, p.Port, err)
	}
	l := &listener{ln: ln, conns: map[net.Conn]bool{}}
	l.portName.Store(&p.Name)
	go l.serve(c.lg, func() []string { return c.endpoints(lb.namespace, lb.name, *l.portName.Load()) })
	return l, nil
}

func (l *listener) serve(lg *zap.Logger, backends func() []string) {
	for {
		conn, err := l.ln.Accept()
		if err != nil {
			return
		}
		go l.forward(lg, conn, backends())
	}
}

// forward copies between conn and one backend, chosen round robin, until
// either side closes.
func (l *listener) forward(lg *zap.Logger, conn net.Conn, backends []string) {
	if !l.track(conn, true) {
		conn.Close()
		return
	}
	defer l.track(conn, false)
	defer conn.Close()
	backends = loopbackBackends(backends)
	if len(backends) == 0 {
		lg.Debug("no backend", zap.Stringer("listener", l.ln.Addr()))
		return
	}
	target := backends[l.next.Add(1)%uint64(len(backends))]
	back, err := net.DialTimeout("tcp", target, dialTimeout)
	if err != nil {
		lg.Debug("backend unreachable", zap.String("backend", target), zap.Error(err))
		return
	}
	if !l.track(back, true) {
		back.Close()
		return
	}
	defer l.track(back, false)
	defer back.Close()
	done := make(chan struct{}, 2)
	pipe := func(dst, src net.Conn) {
		_, _ = io.Copy(dst, src)
		if tc, ok := dst.(*net.TCPConn); ok {
			_ = tc.CloseWrite()
		}
		done <- struct{}{}
	}
	go pipe(back, conn)
	go pipe(conn, back)
	<-done
	<-done
}

// track adds or removes a connection; adding fails once closed.
func (l *listener) track(c net.Conn, add bool) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !add {
		delete(l.conns, c)
		return true
	}
	if l.conns == nil {
		return false
	}
	l.conns[c] = true
	return true
}

func (l *listener) close() {
	_ = l.ln.Close()
	l.mu.Lock()
	conns := l.conns
	l.conns = nil
	l.mu.Unlock()
	for c := range conns {
		_ = c.Close()
	}
}

// Loopback is where the simulated network puts the endpoint address ip:
// a loopback address stays as it is, an IPv4 address a.b.c.d is served at
// 127.b.c.d, and anything else is nowhere (nil). Simulated pods have
// made-up IPs and no network, and the simulated cloud never sends traffic
// off this machine; a test that wants a load balancer to reach a server
// puts a made-up address in a selector-less Service's Endpoints (the API
// refuses loopback ones there) and serves on Loopback of it.
func Loopback(ip net.IP) net.IP {
	switch {
	case ip == nil:
		return nil
	case ip.IsLoopback():
		return ip
	case ip.To4() != nil:
		v4 := ip.To4()
		return net.IPv4(127, v4[1], v4[2], v4[3])
	}
	return nil
}

// loopbackBackends maps each host:port backend to its place on the
// simulated network, dropping those that have none.
func loopbackBackends(backends []string) []string {
	out := backends[:0:0]
	for _, b := range backends {
		host, port, err := net.SplitHostPort(b)
		if err != nil {
			continue
		}
		if ip := Loopback(net.ParseIP(host)); ip != nil {
			out = append(out, net.JoinHostPort(ip.String(), port))
		}
	}
	return out
}
