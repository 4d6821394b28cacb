package cluster

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"platform.io/client/rest"

	"platform.io/platform/pkg/component/certs"
	"platform.io/platform/test/chaos/proxy"
)

// Config says what to run where.
type Config struct {
	// Dir holds data directories, certificates and logs.
	Dir string
	// EtcdBin and APIServerBin are the binaries.
	EtcdBin, APIServerBin string
	// Addrs are the members' loopback addresses, one per member.
	Addrs []string
	// APIServerArgs are flags beyond addresses, certificates and etcd.
	APIServerArgs []string
}

// Member is one etcd member.
type Member struct {
	Name, Addr string
	// ClientURL is where clients reach it; PeerURL is what it advertises
	// to its peers: its proxy's address.
	ClientURL, PeerURL string
	ID                 uint64
	Proc               *Process
}

// Cluster is the etcd members, their proxies and the API server.
type Cluster struct {
	cfg       Config
	Members   []*Member
	Net       *proxy.Network
	APIServer *Process
	// APIURL is the API server's https URL.
	APIURL string
	caPEM  []byte
	admin  *certs.Pair
	etcd   *clientv3.Client
}

// Start runs the members, waits for a leader, then runs the API server
// and waits until it is ready. On error what started is stopped.
func Start(ctx context.Context, cfg Config) (*Cluster, error) {
	c := &Cluster{cfg: cfg, Net: proxy.NewNetwork()}
	if err := c.start(ctx); err != nil {
		logs := c.Logs(20)
		c.Close()
		return nil, fmt.Errorf("%w; logs:\n%s", err, logs)
	}
	return c, nil
}

func (c *Cluster) start(ctx context.Context) error {
	if err := c.define(); err != nil {
		return err
	}
	for _, m := range c.Members {
		if err := m.Proc.Start(); err != nil {
			return err
		}
	}
	var endpoints []string
	for _, m := range c.Members {
		endpoints = append(endpoints, m.ClientURL)
	}
	var err error
	c.etcd, err = clientv3.New(clientv3.Config{Endpoints: endpoints, DialTimeout: 2 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		return err
	}
	for _, m := range c.Members {
		if err := c.WaitMember(ctx, m); err != nil {
			return err
		}
		c.Net.SetID(m.Name, strconv.FormatUint(m.ID, 16))
	}
	if err := c.APIServer.Start(); err != nil {
		return err
	}
	if err := c.WaitAPIServer(ctx); err != nil {
		return err
	}
	return nil
}

// define lays out the members, their proxies and the API server.
func (c *Cluster) define() error {
	var initial []string
	for i, addr := range c.cfg.Addrs {
		m := &Member{Name: fmt.Sprintf("m%d", i), Addr: addr}
		peer, err := freePort(addr)
		if err != nil {
			return err
		}
		clientPort, err := freePort(addr)
		if err != nil {
			return err
		}
		p, err := c.Net.Add(m.Name, net.JoinHostPort(addr, "0"), net.JoinHostPort(addr, strconv.Itoa(peer)))
		if err != nil {
			return err
		}
		m.ClientURL = "http://" + net.JoinHostPort(addr, strconv.Itoa(clientPort))
		m.PeerURL = "http://" + p.Addr()
		initial = append(initial, m.Name+"="+m.PeerURL)
		m.Proc = &Process{Name: "etcd " + m.Name, bin: c.cfg.EtcdBin, logPath: filepath.Join(c.cfg.Dir, m.Name+".log"), args: []string{
			"--name", m.Name, "--data-dir", filepath.Join(c.cfg.Dir, m.Name),
			"--listen-client-urls", m.ClientURL, "--advertise-client-urls", m.ClientURL,
			"--listen-peer-urls", "http://" + net.JoinHostPort(addr, strconv.Itoa(peer)),
			"--initial-advertise-peer-urls", m.PeerURL,
			"--initial-cluster-token", "platform-chaos", "--initial-cluster-state", "new",
			"--heartbeat-interval", "100", "--election-timeout", "1000",
			"--logger", "zap", "--log-outputs", "stderr",
		}}
		c.Members = append(c.Members, m)
	}
	for _, m := range c.Members {
		m.Proc.args = append(m.Proc.args, "--initial-cluster", strings.Join(initial, ","))
	}
	return c.defineAPIServer()
}

// defineAPIServer writes the certificates and lays out the API server.
func (c *Cluster) defineAPIServer() error {
	ca, err := certs.NewCA("platform-chaos-ca")
	if err != nil {
		return err
	}
	serving, err := certs.NewServing(ca, "platform-apiserver", []string{"127.0.0.1"})
	if err != nil {
		return err
	}
	c.admin, err = certs.NewClient(ca, "chaos-admin", []string{"system:masters"})
	if err != nil {
		return err
	}
	pki := filepath.Join(c.cfg.Dir, "pki")
	if err := serving.Write(pki, "apiserver"); err != nil {
		return err
	}
	if err := ca.Write(pki, "ca"); err != nil {
		return err
	}
	c.caPEM = ca.CertPEM
	port, err := freePort("127.0.0.1")
	if err != nil {
		return err
	}
	c.APIURL = "https://127.0.0.1:" + strconv.Itoa(port)
	var servers []string
	for _, m := range c.Members {
		servers = append(servers, m.ClientURL)
	}
	c.APIServer = &Process{Name: "platform-apiserver", bin: c.cfg.APIServerBin, logPath: filepath.Join(c.cfg.Dir, "apiserver.log"),
		args: append([]string{
			"--etcd-servers", strings.Join(servers, ","), "--bind-address", "127.0.0.1", "--secure-port", strconv.Itoa(port),
			"--tls-cert-file", filepath.Join(pki, "apiserver.crt"), "--tls-private-key-file", filepath.Join(pki, "apiserver.key"),
			"--client-ca-file", filepath.Join(pki, "ca.crt"),
			"--cert-dir", filepath.Join(c.cfg.Dir, "certs"), "--data-dir", filepath.Join(c.cfg.Dir, "unused-etcd"),
		}, c.cfg.APIServerArgs...)}
	return nil
}

// RestConfig is the admin's client configuration: no retries, so every
// call's outcome is the one attempt's, and timeout per attempt.
func (c *Cluster) RestConfig(timeout time.Duration) *rest.Config {
	return &rest.Config{Host: c.APIURL, TLS: rest.TLSConfig{CAData: c.caPEM, CertData: c.admin.CertPEM, KeyData: c.admin.KeyPEM},
		QPS: -1, Timeout: timeout, MaxRetries: -1}
}

// WaitMember waits until m knows a leader and serves a linearizable read
// through itself alone, and records its id.
func (c *Cluster) WaitMember(ctx context.Context, m *Member) error {
	own, err := clientv3.New(clientv3.Config{Endpoints: []string{m.ClientURL}, DialTimeout: 2 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		return err
	}
	defer own.Close()
	return poll(ctx, 40*time.Second, "etcd member "+m.Name, func() error {
		rctx, cancel := context.WithTimeout(ctx, time.Second)
		defer cancel()
		st, err := own.Status(rctx, m.ClientURL)
		if err != nil {
			return err
		}
		if st.Leader == 0 {
			return errors.New("no leader")
		}
		m.ID = st.Header.MemberId
		_, err = own.Get(rctx, "health")
		return err
	})
}

// Leader returns the member that leads, as a live member sees it.
func (c *Cluster) Leader(ctx context.Context) (*Member, error) {
	var leader *Member
	err := poll(ctx, 20*time.Second, "etcd leader", func() error {
		for _, m := range c.Members {
			if !m.Proc.Running() {
				continue
			}
			rctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
			st, err := c.etcd.Status(rctx, m.ClientURL)
			cancel()
			if err != nil || st.Leader == 0 {
				continue
			}
			for _, l := range c.Members {
				if l.ID == st.Leader {
					leader = l
					return nil
				}
			}
		}
		return errors.New("no member knows a leader")
	})
	return leader, err
}

// WaitAPIServer waits until the API server answers /readyz with ok.
func (c *Cluster) WaitAPIServer(ctx context.Context) error {
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(c.caPEM)
	cert, err := tls.X509KeyPair(c.admin.CertPEM, c.admin.KeyPEM)
	if err != nil {
		return err
	}
	tr := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, Certificates: []tls.Certificate{cert}}}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Timeout: 2 * time.Second, Transport: tr}
	exited := c.APIServer.Exited()
	return poll(ctx, 60*time.Second, "API server ready", func() error {
		select {
		case <-exited:
			return fmt.Errorf("exited; log:\n%s", c.APIServer.LogTail(20))
		default:
		}
		resp, err := hc.Get(c.APIURL + "/readyz")
		if err != nil {
			return err
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || string(body) != "ok" {
			return fmt.Errorf("HTTP %d: %s", resp.StatusCode, body)
		}
		return nil
	})
}

// Close stops the API server, the members and the proxies.
func (c *Cluster) Close() {
	if c.APIServer != nil {
		c.APIServer.Stop()
	}
	if c.etcd != nil {
		c.etcd.Close()
	}
	for _, m := range c.Members {
		m.Proc.Stop()
	}
	c.Net.Close()
}

// Logs returns the last lines of every process's log.
func (c *Cluster) Logs(n int) string {
	var b strings.Builder
	for _, m := range c.Members {
		fmt.Fprintf(&b, "== %s (%s)\n%s\n", m.Proc.Name, m.Proc.logPath, m.Proc.LogTail(n))
	}
	if c.APIServer != nil {
		fmt.Fprintf(&b, "== %s (%s)\n%s\n", c.APIServer.Name, c.APIServer.logPath, c.APIServer.LogTail(n))
	}
	return b.String()
}

// poll calls f until it returns nil, ctx ends or timeout passes.
func poll(ctx context.Context, timeout time.Duration, what string, f func() error) error {
	deadline := time.Now().Add(timeout)
	var last error
	for {
		if last = f(); last == nil {
			return nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("%s: not within %v: %w", what, timeout, last)
		}
		t := time.NewTimer(100 * time.Millisecond)
		select {
		case <-ctx.Done():
		case <-t.C:
		}
		t.Stop()
	}
}

// freePort returns a port of addr that was free a moment ago.
func freePort(addr string) (int, error) {
	l, err := net.Listen("tcp", net.JoinHostPort(addr, "0"))
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// tail returns the last n lines of the file at path.
func tail(path string, n int) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Sprintf("(read %s: %v)", path, err)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
