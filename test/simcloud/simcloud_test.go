package simcloud

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap/zaptest"

	cloud "platform.io/client/cloudprovider"
)

// echo serves "<line>" back as "echo:<line>" on 127.0.0.1.
func echo(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
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
					_, _ = io.WriteString(c, "echo:"+sc.Text()+"\n")
				}
			}()
		}
	}()
	return ln.Addr().String()
}

func ask(addr string) (string, error) {
	c, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err != nil {
		return "", err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(2 * time.Second))
	if _, err := io.WriteString(c, "hi\n"); err != nil {
		return "", err
	}
	s, err := bufio.NewReader(c).ReadString('\n')
	return strings.TrimSpace(s), err
}

func testConfig(t *testing.T) Config {
	cfg := NewConfig()
	cfg.LoadBalancerCIDR = fmt.Sprintf("127.%d.%d.0/28", 100+rand.IntN(150), rand.IntN(256))
	cfg.StateFile = filepath.Join(t.TempDir(), "state.json")
	return *cfg
}

// TestLoadBalancerForwardsAndSurvivesRestart: a load balancer forwards to
// the service's endpoints on its port; a cloud started again from the
// state file serves the same address, ports and instance states.
func TestLoadBalancerForwardsAndSurvivesRestart(t *testing.T) {
	t.Parallel()
	backend := echo(t)
	eps := func(ns, name, port string) []string {
		if ns == "default" && name == "web" && port == "tcp" {
			return []string{backend}
		}
		return nil
	}
	cfg := testConfig(t)
	c, err := New(zaptest.NewLogger(t), cfg, eps)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	svc := &cloud.Service{Namespace: "default", Name: "web", Ports: []cloud.ServicePort{{Name: "tcp", Protocol: "TCP", Port: 7000}}}
	st, err := c.EnsureLoadBalancer(ctx, "c", svc, nil)
	if err != nil {
		t.Fatal(err)
	}
	addr := net.JoinHostPort(st.Ingress[0].IP, "7000")
	if got, err := ask(addr); err != nil || got != "echo:hi" {
		t.Fatalf("through the load balancer: %q, %v", got, err)
	}
	if _, err := c.EnsureLoadBalancer(ctx, "c", &cloud.Service{Namespace: "default", Name: "udp",
		Ports: []cloud.ServicePort{{Protocol: "UDP", Port: 53}}}, nil); !errors.Is(err, ErrProtocol) {
		t.Errorf("UDP load balancer: %v, want ErrProtocol", err)
	}
	if err := c.SetShutdown("simnode-1", true); err != nil {
		t.Fatal(err)
	}
	c.Close()
	if _, err := ask(addr); err == nil {
		t.Fatal("a closed cloud still forwards")
	}

	again, err := New(zaptest.NewLogger(t), cfg, eps)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if got, err := ask(addr); err != nil || got != "echo:hi" {
		t.Fatalf("after the restart: %q, %v", got, err)
	}
	down, err := again.InstanceShutdown(ctx, cloud.Node{Name: "simnode-1"})
	if err != nil || !down {
		t.Errorf("simnode-1 shut down after the restart = %v, %v", down, err)
	}
	st2, ok, err := again.GetLoadBalancer(ctx, "c", svc)
	if err != nil || !ok || st2.Ingress[0].IP != st.Ingress[0].IP {
		t.Errorf("GetLoadBalancer after restart = %v, %v, %v", st2, ok, err)
	}
	if err := again.EnsureLoadBalancerDeleted(ctx, "c", svc); err != nil {
		t.Fatal(err)
	}
	if _, err := ask(addr); err == nil {
		t.Error("a deleted load balancer still forwards")
	}
}

// TestControlEndpoint: tests shut instances down, start and delete them
// over HTTP; unknown instances are 404.
func TestControlEndpoint(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	cfg.StateFile = ""
	c, err := New(zaptest.NewLogger(t), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(c.Handler())
	defer srv.Close()
	for _, tc := range []struct {
		method, path string
		want         int
	}{
		{"POST", "/instances/simnode-0/shutdown", http.StatusNoContent},
		{"POST", "/instances/nope/shutdown", http.StatusNotFound},
		{"DELETE", "/instances/simnode-2", http.StatusNoContent},
		{"DELETE", "/instances/simnode-2", http.StatusNotFound},
		{"GET", "/instances", http.StatusOK},
	} {
		req, _ := http.NewRequest(tc.method, srv.URL+tc.path, nil)
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("%s %s = %d, want %d", tc.method, tc.path, resp.StatusCode, tc.want)
		}
	}
	ins := c.ListInstances()
	if len(ins) != 2 || !ins[0].Shutdown || ins[1].Name != "simnode-1" {
		t.Errorf("instances = %+v", ins)
	}
}

func TestLoopbackBackends(t *testing.T) {
	for _, tc := range []struct {
		in, want []string
	}{
		{nil, nil},
		{[]string{"127.0.0.1:80", "127.9.8.7:81", "[::1]:82"}, []string{"127.0.0.1:80", "127.9.8.7:81", "[::1]:82"}},
		{[]string{"10.1.2.3:80", "192.168.4.5:81", "8.8.8.8:53"}, []string{"127.1.2.3:80", "127.168.4.5:81", "127.8.8.8:53"}},
		{[]string{"[2001:db8::1]:80", "localhost:80", "garbage", ":80"}, nil},
	} {
		if got := loopbackBackends(tc.in); fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("loopbackBackends(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// TestInternalIP: instances report simnode's default address of their
// node, or the configured one for all.
func TestInternalIP(t *testing.T) {
	tests := []struct {
		name, internalIP, want string
	}{
		{name: "default", want: "172.16.1.2"},
		{name: "configured", internalIP: "127.0.0.1", want: "127.0.0.1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := testConfig(t)
			cfg.Instances, cfg.InternalIP = 258, tt.internalIP
			c, err := New(zaptest.NewLogger(t), cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			md, err := c.InstanceMetadata(context.Background(), cloud.Node{Name: "simnode-257"})
			if err != nil {
				t.Fatal(err)
			}
			if got := md.Addresses[0]; got.Type != "InternalIP" || got.Address != tt.want {
				t.Fatalf("address %+v, want InternalIP %s", got, tt.want)
			}
		})
	}
}
