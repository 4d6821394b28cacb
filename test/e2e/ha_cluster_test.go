package e2e

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"platform.io/client/api/meta"
	"platform.io/client/client"
	"platform.io/client/rest"

	"platform.io/platform/pkg/component/certs"
)

// The stacked layout of the HA test: three control-plane hosts, simulated
// by loopback addresses, each with an etcd member, an API server and
// replicas of the leader-elected daemons.
const (
	// haLeaseDuration, haRenewDeadline and haRetryPeriod are the leader
	// election flags of every daemon: shorter than the defaults (15s, 10s,
	// 2s), so a SIGKILLed leader is replaced within seconds, but with a
	// renew deadline above etcd's request timeout (5s plus two election
	// timeouts, 7s here): a renewal whose proposal died with the etcd
	// leader hangs that long, and with a 4s deadline both leaders lost
	// their leases whenever the etcd leader died.
	haLeaseDuration = 10 * time.Second
	haRenewDeadline = 8 * time.Second
	haRetryPeriod   = 500 * time.Millisecond
	// haRestartDelay is how long a unit that exited on its own waits before
	// it is started again (systemd's Restart=always with RestartSec=1).
	haRestartDelay = time.Second
	// haStartTimeout bounds the start of an etcd member or an API server.
	haStartTimeout = 40 * time.Second
	// haStopTimeout bounds a SIGTERM.
	haStopTimeout = 15 * time.Second
)

// The daemons the HA test runs, by binary name; each is also its lock's
// name in platform-system.
const (
	haScheduler              = "platform-scheduler"
	haControllerManager      = "platform-controller-manager"
	haCloudControllerManager = "platform-cloud-controller-manager"
)

// haLockName is the name of kind's Lease in platform-system: the
// binary's name, except for the cloud controller manager, whose lock is
// named cloud-controller-manager as upstream's.
func haLockName(kind string) string {
	if kind == haCloudControllerManager {
		return "cloud-controller-manager"
	}
	return kind
}

// haDaemons are the leader-elected daemons whose takeovers the test
// measures.
var haDaemons = []string{haScheduler, haControllerManager, haCloudControllerManager}

// haAddrs are the simulated hosts' addresses: on Linux the whole of
// 127.0.0.0/8 is loopback.
var haAddrs = []string{"127.0.0.2", "127.0.0.3", "127.0.0.4"}

// haHost is one simulated control-plane host.
type haHost struct {
	name, addr, dir string
	etcdClientURL   string
	etcdPeerURL     string
	apiPort         int
	kubeconfig      string
	etcd, apiserver *unit
	// daemons are the leader-elected daemons on the host, by binary name.
	daemons map[string]*unit
	// etcdID is the member id of the host's etcd member.
	etcdID uint64
}

func (h *haHost) apiURL() string { return fmt.Sprintf("https://%s:%d", h.addr, h.apiPort) }

// units returns the host's units, daemons first, then the API server and
// etcd: the order a host is stopped in.
func (h *haHost) units() []*unit {
	var out []*unit
	for _, name := range haDaemons {
		if u := h.daemons[name]; u != nil {
			out = append(out, u)
		}
	}
	return append(out, h.apiserver, h.etcd)
}

// haCluster is the three hosts, the load balancer in front of their API
// servers, and clients for the test.
type haCluster struct {
	t     *testing.T
	dir   string
	hosts []*haHost
	caPEM []byte
	// id is the client CA the API servers trust and the admin's certificate.
	id *clientIdentity
	lb *haLB
	// set reaches the API servers through the load balancer.
	set *client.Set
	// etcd reaches every member, for status.
	etcd *clientv3.Client
	// lbKubeconfig is the kubeconfig of the load balancer's address.
	lbKubeconfig string
	// apiserverFlags are flags every API server gets beyond the basics;
	// endpointsTTL is how soon a dead API server leaves the platform
	// Endpoints.
	apiserverFlags []string
	endpointsTTL   time.Duration
	bins           map[string]string
	// cloudEndpoint is the socket of the simulated cloud the cloud
	// controller managers share (startCloud).
	cloudEndpoint string
}

// startHACluster starts three etcd members, three API servers and the
// load balancer, and waits until all serve.
func startHACluster(t *testing.T) *haCluster {
	t.Helper()
	etcdBin, err := exec.LookPath("etcd")
	if err != nil {
		etcdBin = "/usr/bin/etcd"
		if _, err := os.Stat(etcdBin); err != nil {
			t.Fatal("etcd not found: install Debian's etcd-server (the HA test runs a real three-member cluster)")
		}
	}
	c := &haCluster{t: t, dir: t.TempDir(), bins: map[string]string{
		"etcd": etcdBin, "platform-apiserver": apiserverBinary(t),
		haScheduler: binary(t, haScheduler), haControllerManager: binary(t, haControllerManager),
		haCloudControllerManager: binary(t, haCloudControllerManager),
		"platform-simnode":       binary(t, "platform-simnode"), "platform-simcloud": binary(t, "platform-simcloud"),
	}}
	c.apiserverFlags, c.endpointsTTL = optionalAPIServerFlags(t, c.bins["platform-apiserver"])
	c.defineHosts()
	t.Cleanup(c.stop)
	for _, h := range c.hosts {
		c.mustStart(h.etcd)
	}
	var endpoints []string
	for _, h := range c.hosts {
		endpoints = append(endpoints, h.etcdClientURL)
	}
	c.etcd, err = clientv3.New(clientv3.Config{Endpoints: endpoints, DialTimeout: 2 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range c.hosts {
		c.waitEtcdMember(h)
	}
	for _, h := range c.hosts {
		c.mustStart(h.apiserver)
	}
	var backends []string
	for _, h := range c.hosts {
		c.waitAPIServer(h)
		backends = append(backends, net.JoinHostPort(h.addr, fmt.Sprint(h.apiPort)))
	}
	c.lb = startLB(t, backends, c.caPEM, c.id)
	c.lbKubeconfig = filepath.Join(c.dir, "lb.kubeconfig")
	if err := writeKubeconfig(c.lbKubeconfig, c.lb.URL(), c.caPEM, c.id); err != nil {
		t.Fatal(err)
	}
	rc, err := rest.NewClient(&rest.Config{Host: c.lb.URL(), TLS: rest.TLSConfig{CAData: c.caPEM, CertData: c.id.Admin.CertPEM, KeyData: c.id.Admin.KeyPEM},
		QPS: -1, Timeout: 10 * time.Second, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	c.set = client.NewSet(rc)
	return c
}

// defineHosts lays out the three hosts (addresses, ports, directories,
// kubeconfigs) and their etcd and API server units, not yet started.
func (c *haCluster) defineHosts() {
	t := c.t
	certFile, keyFile := c.writeCerts()
	c.id = newClientIdentity(t, filepath.Join(c.dir, "client-ca"))
	// Every API server listens on the same port at its own address, as
	// on real hosts.
	apiPort := commonFreePort(t, haAddrs)
	var cluster []string
	for i, addr := range haAddrs {
		name := string(rune('a' + i))
		h := &haHost{name: name, addr: addr, dir: filepath.Join(c.dir, name), apiPort: apiPort, daemons: map[string]*unit{}}
		h.etcdClientURL = fmt.Sprintf("http://%s:%d", addr, freePortOn(t, addr))
		h.etcdPeerURL = fmt.Sprintf("http://%s:%d", addr, freePortOn(t, addr))
		h.kubeconfig = filepath.Join(h.dir, "kubeconfig")
		if err := os.MkdirAll(h.dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := writeKubeconfig(h.kubeconfig, h.apiURL(), c.caPEM, c.id); err != nil {
			t.Fatal(err)
		}
		cluster = append(cluster, h.name+"="+h.etcdPeerURL)
		c.hosts = append(c.hosts, h)
	}
	for _, h := range c.hosts {
		h.etcd = c.newUnit(h, "etcd", "--name", h.name, "--data-dir", filepath.Join(h.dir, "etcd"),
			"--listen-client-urls", h.etcdClientURL, "--advertise-client-urls", h.etcdClientURL,
			"--listen-peer-urls", h.etcdPeerURL, "--initial-advertise-peer-urls", h.etcdPeerURL,
			"--initial-cluster", strings.Join(cluster, ","), "--initial-cluster-state", "new",
			"--initial-cluster-token", "platform-ha-e2e", "--logger", "zap", "--log-outputs", "stderr",
			"--heartbeat-interval", "100", "--election-timeout", "1000")
		h.apiserver = c.newUnit(h, "platform-apiserver", append([]string{
			"--etcd-servers", c.etcdServers(h), "--bind-address", h.addr, "--secure-port", fmt.Sprint(h.apiPort),
			"--tls-cert-file", certFile, "--tls-private-key-file", keyFile, "--client-ca-file", c.id.CAFile,
			"--cert-dir", filepath.Join(h.dir, "certs"), "--data-dir", filepath.Join(h.dir, "unused-etcd"),
		}, c.apiserverFlags...)...)
	}
}

// etcdServers is h's --etcd-servers: every member, h's own first. The
// stacked layout kubeadm writes names only the local member; naming all
// of them lets an API server whose member died keep serving through the
// other two, so a single member's loss costs neither that host's API
// server nor the leases of the daemons that talk to it.
func (c *haCluster) etcdServers(h *haHost) string {
	urls := []string{h.etcdClientURL}
	for _, o := range c.hosts {
		if o != h {
			urls = append(urls, o.etcdClientURL)
		}
	}
	return strings.Join(urls, ",")
}

// writeCerts writes a CA and one serving pair for every host's address
// (and 127.0.0.1, the load balancer's), shared by the API servers as an
// operator's certificate would be; it returns the pair's files.
func (c *haCluster) writeCerts() (string, string) {
	ca, err := certs.NewCA("platform-ha-e2e-ca")
	if err != nil {
		c.t.Fatal(err)
	}
	srv, err := certs.NewServing(ca, "platform-apiserver", haAddrs)
	if err != nil {
		c.t.Fatal(err)
	}
	dir := filepath.Join(c.dir, "pki")
	if err := srv.Write(dir, "apiserver"); err != nil {
		c.t.Fatal(err)
	}
	c.caPEM = ca.CertPEM
	return filepath.Join(dir, "apiserver.crt"), filepath.Join(dir, "apiserver.key")
}

// newUnit makes a unit of h running bin (a key of c.bins) with args.
func (c *haCluster) newUnit(h *haHost, bin string, args ...string) *unit {
	return &unit{t: c.t, host: h, name: bin, bin: c.bins[bin], args: args, logPath: filepath.Join(h.dir, bin+".log")}
}

func (c *haCluster) mustStart(u *unit) {
	c.t.Helper()
	if err := u.start(); err != nil {
		c.t.Fatalf("start %s: %v", u, err)
	}
}

// startDaemon runs a replica of the leader-elected daemon name on h,
// against h's API server.
func (c *haCluster) startDaemon(h *haHost, name string) *unit {
	c.t.Helper()
	args := []string{"--kubeconfig", h.kubeconfig, "--log-format", "json", "--secure-port", "0",
		"--leader-elect-lease-duration", haLeaseDuration.String(),
		"--leader-elect-renew-deadline", haRenewDeadline.String(),
		"--leader-elect-retry-period", haRetryPeriod.String()}
	switch name {
	case haScheduler:
		args = append(args, "--port", "0")
	case haControllerManager:
		args = append(args, "--platform-api-qps", "50", "--platform-api-burst", "100")
	case haCloudControllerManager:
		args = append(args, "--cloud-provider=simcloud", "--cloud-provider-endpoint", c.cloudEndpoint)
	}
	u := c.newUnit(h, name, args...)
	h.daemons[name] = u
	c.mustStart(u)
	return u
}

// startCloud runs the simulated cloud provider that every cloud
// controller manager replica reaches over its socket: the cloud is no
// host of the control plane, and outlives the hosts the test kills.
func (c *haCluster) startCloud() {
	c.t.Helper()
	h := &haHost{name: "cloud", dir: filepath.Join(c.dir, "cloud")}
	if err := os.MkdirAll(h.dir, 0o755); err != nil {
		c.t.Fatal(err)
	}
	c.cloudEndpoint = "unix://" + filepath.Join(h.dir, "simcloud.sock")
	u := c.newUnit(h, "platform-simcloud", "--endpoint", c.cloudEndpoint, "--instances=0",
		"--load-balancer-cidr", lbRange(), "--state-file", filepath.Join(h.dir, "state.json"))
	c.mustStart(u)
	c.t.Cleanup(u.close)
}

// startNodes runs platform-simnode with n nodes through the load
// balancer, and waits until they are Ready.
func (c *haCluster) startNodes(n int) {
	c.t.Helper()
	// The nodes are no host of the control plane; their unit hangs off a
	// host of their own for its log.
	h := &haHost{name: "nodes", dir: filepath.Join(c.dir, "nodes")}
	if err := os.MkdirAll(h.dir, 0o755); err != nil {
		c.t.Fatal(err)
	}
	u := c.newUnit(h, "platform-simnode", "--kubeconfig", c.lbKubeconfig, "--nodes", fmt.Sprint(n),
		"--readiness-delay", "200ms", "--lease-interval", "2s")
	c.mustStart(u)
	c.t.Cleanup(u.close)
	Eventually(c.t, 60*time.Second, "simulated nodes Ready", func() string {
		nodes, err := c.set.Nodes.List(context.Background(), meta.ListOptions{})
		if err != nil {
			return err.Error()
		}
		ready := 0
		for _, node := range nodes.Items {
			for _, cond := range node.Status.Conditions {
				if cond.Type == "Ready" && cond.Status == "True" {
					ready++
				}
			}
		}
		return want(fmt.Sprint(ready), fmt.Sprint(n))
	})
}

// startHost starts a host's units that were stopped, etcd first.
func (c *haCluster) startHost(h *haHost) {
	c.t.Helper()
	c.mustStart(h.etcd)
	c.mustStart(h.apiserver)
	c.waitEtcdMember(h)
	c.waitAPIServer(h)
	for _, name := range haDaemons {
		if u := h.daemons[name]; u != nil {
			c.mustStart(u)
		}
	}
}

// killHost SIGKILLs every process of h at once.
func (c *haCluster) killHost(h *haHost) {
	var wg sync.WaitGroup
	for _, u := range h.units() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			u.kill()
		}()
	}
	wg.Wait()
}

// stop ends every unit, daemons first and etcd last.
func (c *haCluster) stop() {
	for _, h := range c.hosts {
		for _, name := range haDaemons {
			if u := h.daemons[name]; u != nil {
				u.close()
			}
		}
	}
	for _, h := range c.hosts {
		if h.apiserver != nil {
			h.apiserver.close()
		}
	}
	if c.etcd != nil {
		c.etcd.Close()
	}
	for _, h := range c.hosts {
		if h.etcd != nil {
			h.etcd.close()
		}
	}
	if c.t.Failed() {
		for _, h := range c.hosts {
			for _, u := range h.units() {
				c.t.Logf("%s log (%s), last lines:\n%s", u, u.logPath, tail(u.logPath, 15))
			}
		}
	}
}

// waitEtcdMember waits until h's member knows the leader and serves a
// linearizable read through itself alone within a second (a member that
// has just restarted accepts requests before it can answer them, and
// holds them for etcd's request timeout); it records the member's id.
func (c *haCluster) waitEtcdMember(h *haHost) {
	c.t.Helper()
	own, err := clientv3.New(clientv3.Config{Endpoints: []string{h.etcdClientURL}, DialTimeout: 2 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		c.t.Fatal(err)
	}
	defer own.Close()
	Eventually(c.t, haStartTimeout, "etcd member "+h.name, func() string {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		st, err := own.Status(ctx, h.etcdClientURL)
		if err != nil {
			return err.Error()
		}
		if st.Leader == 0 {
			return "no leader"
		}
		h.etcdID = st.Header.MemberId
		if _, err := own.Get(ctx, "health"); err != nil {
			return "linearizable read: " + err.Error()
		}
		return ""
	})
}

// etcdLeader returns the host whose member leads, as the live members
// see it; nil when none does.
func (c *haCluster) etcdLeader() *haHost {
	for _, h := range c.hosts {
		if h.etcd.current() == nil {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		st, err := c.etcd.Status(ctx, h.etcdClientURL)
		cancel()
		if err != nil || st.Leader == 0 {
			continue
		}
		for _, l := range c.hosts {
			if l.etcdID == st.Leader && l.etcd.current() != nil {
				return l
			}
		}
	}
	return nil
}

// waitAPIServer waits until h's API server answers /readyz with ok.
func (c *haCluster) waitAPIServer(h *haHost) {
	c.t.Helper()
	hc := httpsClient(c.caPEM, c.id)
	Eventually(c.t, haStartTimeout, "API server "+h.name, func() string {
		if err := readyz(hc, h.apiURL()); err != nil {
			return err.Error()
		}
		return ""
	})
}

// optionalAPIServerFlags returns flags for features the API server may
// not have yet, each only when its --help lists it, and the endpoint
// reconciler lease they set: a short one, so the platform Endpoints check
// after a kill waits seconds rather than the default 15.
func optionalAPIServerFlags(t *testing.T, bin string) ([]string, time.Duration) {
	t.Helper()
	out, _ := exec.Command(bin, "--help").CombinedOutput()
	if strings.Contains(string(out), "--endpoint-reconciler-lease-ttl") {
		return []string{"--endpoint-reconciler-lease-ttl", haEndpointsTTL.String()}, haEndpointsTTL
	}
	return nil, haEndpointsDefaultTTL
}

// freePortOn returns a TCP port of addr that was free a moment ago.
func freePortOn(t testing.TB, addr string) int {
	t.Helper()
	l, err := net.Listen("tcp", net.JoinHostPort(addr, "0"))
	if err != nil {
		t.Fatalf("find a free port on %s: %v", addr, err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// commonFreePort returns a port that was free on every address a moment
// ago.
func commonFreePort(t testing.TB, addrs []string) int {
	t.Helper()
	for range 20 {
		port := freePortOn(t, addrs[0])
		free := true
		for _, a := range addrs[1:] {
			l, err := net.Listen("tcp", net.JoinHostPort(a, fmt.Sprint(port)))
			if err != nil {
				free = false
				break
			}
			l.Close()
		}
		if free {
			return port
		}
	}
	t.Fatalf("no port free on all of %v", addrs)
	return 0
}
