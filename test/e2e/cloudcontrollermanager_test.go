package e2e

import (
	"bufio"
	"crypto/tls"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"platform.io/platform/test/simcloud"
)

// lbRange is a random loopback /24 for one test's load balancers.
func lbRange() string {
	return fmt.Sprintf("127.%d.%d.0/24", 100+rand.IntN(150), rand.IntN(256))
}

// echoOnHost serves "<line>" back as "echo:<line>" on the simulated
// cloud's network: it returns a made-up endpoint address (Endpoints may
// not point at loopback) and the port; the simulated cloud reaches that
// address on loopback (simcloud.Loopback), so no traffic leaves the
// machine.
func echoOnHost(t *testing.T) (string, int) {
	t.Helper()
	ip := net.IPv4(10, byte(100+rand.IntN(150)), byte(rand.IntN(256)), byte(1+rand.IntN(254)))
	ln, err := net.Listen("tcp", net.JoinHostPort(simcloud.Loopback(ip).String(), "0"))
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
	return ip.String(), ln.Addr().(*net.TCPAddr).Port
}

// askTCP sends a line to addr and returns the answer.
func askTCP(addr string) (string, error) {
	c, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err != nil {
		return "", err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(2 * time.Second))
	if _, err := io.WriteString(c, "ping\n"); err != nil {
		return "", err
	}
	s, err := bufio.NewReader(c).ReadString('\n')
	return strings.TrimSpace(s), err
}

// selectorless is a LoadBalancer Service without a selector on port, and
// its Endpoints at host:target.
func selectorless(name string, port int, host string, target int) string {
	return fmt.Sprintf(`apiVersion: v1
kind: Service
metadata: {name: %[1]s}
spec:
  type: LoadBalancer
  ports: [{port: %[2]d, protocol: TCP}]
---
apiVersion: v1
kind: Endpoints
metadata: {name: %[1]s}
subsets:
- addresses: [{ip: %[3]s}]
  ports: [{port: %[4]d, protocol: TCP}]
`, name, port, host, target)
}

// TestCloudControllerManager runs the cloud controller manager with the
// simulated cloud started from --cloud-provider-binary, simulated nodes
// registering for an external cloud and node IPAM in the controller
// manager, and uses the stock kubectl: nodes get provider IDs, zone labels
// and pod CIDRs; `kubectl expose --type=LoadBalancer` gets an external IP;
// a TCP connection to a selector-less Service's load balancer reaches its
// endpoints; deleting the Service frees the address.
func TestCloudControllerManager(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	dir := t.TempDir()
	cloudConfig := filepath.Join(dir, "simcloud.yaml")
	cfg := fmt.Sprintf("kubeconfig: %s\ninstances: 2\nzones: [zone-a, zone-b]\nloadBalancerCIDR: %s\n", s.Kubeconfig, lbRange())
	if err := os.WriteFile(cloudConfig, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	s.StartProcess(t, "platform-controller-manager", "--bind-address", "127.0.0.1", "--secure-port", fmt.Sprint(freePort(t)),
		"--leader-elect=false", "--controllers=nodeipam,endpoint", "--allocate-node-cidrs", "--cluster-cidr=10.64.0.0/16")
	s.StartProcess(t, "platform-cloud-controller-manager", "--bind-address", "127.0.0.1", "--secure-port", fmt.Sprint(freePort(t)),
		"--leader-elect=false", "--cloud-provider=simcloud", "--cloud-provider-binary", binary(t, "platform-simcloud"),
		"--cloud-config", cloudConfig, "--allocate-node-cidrs", "--cluster-cidr=10.64.0.0/16", "--route-reconciliation-period=1s")
	s.StartProcess(t, "platform-simnode", "--nodes=2", "--zones=zone-a,zone-b", "--cloud-provider=external")

	Eventually(t, 60*time.Second, "nodes initialized by the cloud", func() string {
		return want(s.field(t, `{range .items[*]}{.metadata.name}={.spec.providerID},{.metadata.labels.topology\.platform\.io/zone},{.metadata.labels.node\.platform\.io/instance-type},{.spec.taints} {end}`, "get", "nodes"),
			"simnode-0=simcloud://simnode-0,zone-a,sim.standard, simnode-1=simcloud://simnode-1,zone-b,sim.standard,")
	})
	Eventually(t, 30*time.Second, "pod CIDRs from node IPAM", func() string {
		cidrs := strings.Fields(s.field(t, "{.items[*].spec.podCIDR}", "get", "nodes"))
		if len(cidrs) != 2 || !strings.HasPrefix(cidrs[0], "10.64.") || cidrs[0] == cidrs[1] {
			return fmt.Sprintf("pod CIDRs %v", cidrs)
		}
		return ""
	})
	wide := s.MustKubectl(t, "get", "nodes", "-o", "wide")
	t.Logf("kubectl get nodes -o wide:\n%s", wide)

	s.MustKubectl(t, "create", "deployment", "web", "--image=nginx:1.25")
	s.MustKubectl(t, "expose", "deployment", "web", "--type=LoadBalancer", "--port", "80")
	Eventually(t, 30*time.Second, "an external IP for web", func() string {
		row := TableRow(t, s.MustKubectl(t, "get", "svc", "web"), "web")
		if len(row) < 4 || !strings.HasPrefix(row[3], "127.") {
			return fmt.Sprintf("row %v", row)
		}
		return ""
	})

	host, port := echoOnHost(t)
	s.MustKubectl(t, "apply", "-f", WriteManifest(t, selectorless("backend", 8000, host, port)))
	var ip string
	Eventually(t, 30*time.Second, "an external IP for backend", func() string {
		if ip = s.field(t, "{.status.loadBalancer.ingress[0].ip}", "get", "svc", "backend"); ip == "" {
			return "no ingress"
		}
		return ""
	})
	addr := net.JoinHostPort(ip, "8000")
	Eventually(t, 10*time.Second, "traffic through the load balancer", func() string {
		if got, err := askTCP(addr); err != nil || got != "echo:ping" {
			return fmt.Sprintf("%q, %v", got, err)
		}
		return ""
	})
	s.MustKubectl(t, "delete", "svc", "backend")
	Eventually(t, 30*time.Second, "the address freed", func() string {
		if _, err := askTCP(addr); err == nil {
			return addr + " still answers"
		}
		return ""
	})
}

// daemonReadyz returns the status code and body of a replica's verbose /readyz.
func daemonReadyz(port int) (int, string) {
	c := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}
	resp, err := c.Get(fmt.Sprintf("https://127.0.0.1:%d/readyz?verbose", port))
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// TestCloudControllerManagerFailover runs two replicas with leader
// election against one simulated cloud process on a socket: only the
// leader runs the loops, the standby takes over when the leader is
// killed; then the cloud process is killed, /readyz reports it, and once
// it is started again the services created meanwhile are served. Every
// Service gets its own address, and none was ensured twice.
func TestCloudControllerManagerFailover(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	dir := t.TempDir()
	endpoint := "unix://" + filepath.Join(dir, "simcloud.sock")
	cloudFlags := []string{"--endpoint", endpoint, "--instances=0", "--load-balancer-cidr", lbRange(),
		"--state-file", filepath.Join(dir, "state.json")}
	provider := s.StartProcess(t, "platform-simcloud", cloudFlags...)
	flags := []string{"--bind-address", "127.0.0.1", "--leader-elect-lease-duration=3s", "--leader-elect-renew-deadline=2s",
		"--leader-elect-retry-period=250ms", "--cloud-provider=simcloud", "--cloud-provider-endpoint", endpoint,
		"--controllers=service", "--authorization-always-allow-paths=/healthz,/readyz"}
	ports := []int{freePort(t), freePort(t)}
	replicas := []*Process{
		s.StartProcess(t, "platform-cloud-controller-manager", append(flags, "--secure-port", fmt.Sprint(ports[0]))...),
		s.StartProcess(t, "platform-cloud-controller-manager", append(flags, "--secure-port", fmt.Sprint(ports[1]))...),
	}
	var leader, standby *Process
	standbyPort := 0
	Eventually(t, 30*time.Second, "a leading replica", func() string {
		for i, p := range replicas {
			if data, _ := os.ReadFile(p.LogPath); strings.Contains(string(data), "started leading") {
				leader, standby, standbyPort = p, replicas[1-i], ports[1-i]
				return ""
			}
		}
		return "no replica logged started leading"
	})
	create := func(from, to int) {
		var b strings.Builder
		for i := from; i < to; i++ {
			fmt.Fprintf(&b, "apiVersion: v1\nkind: Service\nmetadata: {name: lb-%d}\nspec: {type: LoadBalancer, ports: [{port: 80}]}\n---\n", i)
		}
		s.MustKubectl(t, "apply", "-f", WriteManifest(t, b.String()))
	}
	create(0, 5)
	Eventually(t, 30*time.Second, "the first services served", func() string {
		if n := len(strings.Fields(s.field(t, "{.items[*].status.loadBalancer.ingress[0].ip}", "get", "svc", "-l", ""))); n < 5 {
			return fmt.Sprintf("%d addresses", n)
		}
		return ""
	})
	if data, _ := os.ReadFile(standby.LogPath); strings.Contains(string(data), "controller started") {
		t.Fatal("the standby started its loops while the other replica led")
	}
	leader.Kill()
	create(5, 10)
	Eventually(t, 60*time.Second, "every service served after the failover", func() string {
		ips := strings.Fields(s.field(t, "{.items[*].status.loadBalancer.ingress[0].ip}", "get", "svc"))
		seen := map[string]bool{}
		for _, ip := range ips {
			seen[ip] = true
		}
		if len(ips) != 10 || len(seen) != 10 {
			return fmt.Sprintf("addresses %v", ips)
		}
		return ""
	})

	if code, body := daemonReadyz(standbyPort); code != http.StatusOK {
		t.Fatalf("/readyz of the new leader = %d: %s", code, body)
	}
	provider.Kill()
	Eventually(t, 30*time.Second, "/readyz reports the provider down", func() string {
		if code, body := daemonReadyz(standbyPort); code == http.StatusOK || !strings.Contains(body, "cloud-provider failed") {
			return fmt.Sprintf("%d: %s", code, body)
		}
		return ""
	})
	create(10, 15)
	s.StartProcess(t, "platform-simcloud", cloudFlags...)
	Eventually(t, 60*time.Second, "every service served after the provider restart", func() string {
		ips := strings.Fields(s.field(t, "{.items[*].status.loadBalancer.ingress[0].ip}", "get", "svc"))
		seen := map[string]bool{}
		for _, ip := range ips {
			seen[ip] = true
		}
		if len(ips) != 15 || len(seen) != 15 {
			return fmt.Sprintf("addresses %v", ips)
		}
		if code, body := daemonReadyz(standbyPort); code != http.StatusOK {
			return fmt.Sprintf("/readyz %d: %s", code, body)
		}
		return ""
	})
	// Events are written in the background: wait for them, then check
	// each service was ensured once (an Event's count says how often it
	// repeated).
	Eventually(t, 30*time.Second, "one EnsuredLoadBalancer per service", func() string {
		rows := strings.Fields(s.field(t, `{range .items[?(@.reason=="EnsuredLoadBalancer")]}{.involvedObject.name}={.count} {end}`, "get", "events"))
		count := map[string]int{}
		for _, row := range rows {
			name, n, _ := strings.Cut(row, "=")
			c, _ := strconv.Atoi(n)
			count[name] += max(c, 1)
		}
		for i := range 15 {
			if n := count[fmt.Sprintf("lb-%d", i)]; n != 1 {
				return fmt.Sprintf("lb-%d ensured %d times (events %v)", i, n, rows)
			}
		}
		return ""
	})
}
