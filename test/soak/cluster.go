package soak

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"platform.io/client/client"
	"platform.io/client/rest"

	"platform.io/platform/pkg/apiserver/storage/etcdtest"
	"platform.io/platform/test/e2e/framework"
)

// Cluster is the control plane of hack/local-up.sh as the e2e suite starts
// it (framework): a Debian etcd, the API server on it under Node,RBAC,
// the scheduler, controller manager and cloud controller manager (its
// simulated cloud as a plugin process) each on its own identity with
// delegated authentication and authorization of its secure port, and
// simulated nodes registering for the external cloud.
type Cluster struct {
	Server *framework.Server
	// Clients reach the API server as the admin.
	Clients *client.Set
	// Targets are the processes the sampler watches.
	Targets []Target
	// Daemons are the processes besides the API server and etcd, whose
	// exit ends the run.
	Daemons []*framework.Process
	// Nodes is how many simulated nodes there are.
	Nodes int
	// Profiles are the heap profiles of the API server and the daemons,
	// by name.
	Profiles map[string]Profile
}

// Profile is where a process serves its heap profile and the client that
// may read it (an admin's: /debug/pprof is not for system:monitoring).
type Profile struct {
	URL    string
	Client *http.Client
}

// daemonMetrics are the metrics read from each daemon's /metrics.
func daemonMetrics() map[Metric]string {
	return map[Metric]string{Goroutines: "go_goroutines", HeapInuse: "go_memstats_heap_inuse_bytes"}
}

// SaveHeapProfiles writes each daemon's heap profile to
// dir/heap-<daemon>-<label>.pb.gz, so that growth the samples show can be
// traced (go tool pprof -base heap-x-warmup.pb.gz heap-x-end.pb.gz).
func (c *Cluster) SaveHeapProfiles(ctx context.Context, dir, label string) error {
	var errs []error
	for name, p := range c.Profiles {
		if err := saveURL(ctx, p.Client, p.URL, filepath.Join(dir, fmt.Sprintf("heap-%s-%s.pb.gz", name, label))); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
		}
	}
	return errors.Join(errs...)
}

func saveURL(ctx context.Context, c *http.Client, url, file string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	return os.WriteFile(file, data, 0o644)
}

// StartCluster starts the control plane with nodes simulated nodes and
// waits until they are Ready and initialized by the cloud. Everything is
// stopped when the test ends.
func StartCluster(t *testing.T, nodes int) *Cluster {
	t.Helper()
	// etcd 3.4 keeps up to --snapshot-count (100,000) raft entries in
	// memory before a snapshot lets it drop them, more than an hour of
	// this workload writes: its memory would grow all run by design. With
	// 1,000 it holds 5,000 to 6,000 (the entries it keeps for a slow
	// follower), a steady state within minutes.
	etcd, err := etcdtest.StartExternal("--snapshot-count=1000")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(etcd.Stop)
	cfg := framework.RBACConfig(t)
	cfg.EtcdServers = etcd.ClientURL
	// Events live 5 minutes instead of an hour, so that their number is
	// steady well within the warm-up: a store of events that grows for
	// the whole run is by design, not a leak.
	cfg.Args = append(cfg.Args, "--event-ttl=5m")
	s := framework.StartServerWith(t, cfg)
	c := &Cluster{Server: s, Nodes: nodes}

	apiClient, err := s.HTTPClient()
	if err != nil {
		t.Fatal(err)
	}
	apiClient.Timeout = 10 * time.Second
	etcdPid := etcd.Pid()
	c.Targets = append(c.Targets,
		Target{Name: "etcd", Pid: func() (int, error) { return etcdPid, nil },
			MetricsURL: etcd.ClientURL + "/metrics", Client: &http.Client{Timeout: 10 * time.Second},
			FromMetrics: map[Metric]string{Goroutines: "go_goroutines", HeapInuse: "go_memstats_heap_inuse_bytes", EtcdDB: "etcd_mvcc_db_total_size_in_bytes",
				EtcdCommitted: "etcd_server_proposals_committed_total"}},
		Target{Name: "platform-apiserver", Pid: func() (int, error) { return s.Pid(), nil },
			MetricsURL: s.URL + "/metrics", Client: apiClient,
			FromMetrics: map[Metric]string{Goroutines: "go_goroutines", HeapInuse: "go_memstats_heap_inuse_bytes"}})

	// The daemons' /metrics allow system:monitoring (delegated to the API
	// server's RBAC).
	monitor := s.DaemonClient(s.SignClient(t, "soak-monitor", "system:monitoring"))
	monitor.Timeout = 10 * time.Second
	profiler := s.DaemonClient(s.SignClient(t, "soak-profiler", "system:masters"))
	profiler.Timeout = 30 * time.Second
	c.Profiles = map[string]Profile{"platform-apiserver": {URL: s.URL + "/debug/pprof/heap", Client: apiClient}}
	common := []string{"--bind-address", "127.0.0.1"}
	daemon := func(name string, args ...string) *framework.Process {
		port := framework.FreePort(t)
		p := s.StartDaemonAs(t, name, s.UserKubeconfig(t, "system:"+name),
			append(append(common, "--secure-port", fmt.Sprint(port)), args...)...)
		c.Daemons = append(c.Daemons, p)
		c.Profiles[name] = Profile{URL: fmt.Sprintf("https://127.0.0.1:%d/debug/pprof/heap", port), Client: profiler}
		c.Targets = append(c.Targets, Target{Name: name, Pid: func() (int, error) { return p.Pid(), nil },
			MetricsURL: fmt.Sprintf("https://127.0.0.1:%d/metrics", port), Client: monitor, FromMetrics: daemonMetrics()})
		return p
	}
	const clusterCIDR = "10.64.0.0/16"
	daemon("platform-scheduler", "--port=0")
	daemon("platform-controller-manager", "--root-ca-file", filepath.Join(s.CertDir, "apiserver.crt"),
		"--use-service-account-credentials", "--allocate-node-cidrs", "--cluster-cidr", clusterCIDR)

	c.startCloudAndNodes(t, daemon, clusterCIDR)
	c.Clients = adminClients(t, s)

	framework.Eventually(t, 90*time.Second, "nodes Ready and initialized by the cloud", func() string {
		out := s.Kubectl(t, "get", "nodes", "--no-headers", "-o", "custom-columns=N:.metadata.name,P:.spec.providerID,C:.spec.podCIDR")
		if n := strings.Count(out.Stdout, "simcloud://"); n != nodes || strings.Contains(out.Stdout, "<none>") {
			return out.String()
		}
		return ""
	})
	return c
}

// startCloudAndNodes runs the cloud controller manager (through daemon)
// with the simulated cloud as its plugin, and the simulated nodes, each
// with its own certificate, registering for the external cloud.
func (c *Cluster) startCloudAndNodes(t *testing.T, daemon func(string, ...string) *framework.Process, clusterCIDR string) {
	t.Helper()
	s := c.Server
	// The simulated cloud reads the nodes as the admin: it is the cloud's,
	// not the cluster's.
	dir := t.TempDir()
	cloudConfig := filepath.Join(dir, "simcloud.yaml")
	lbCIDR := fmt.Sprintf("127.%d.%d.0/24", 100+rand.IntN(150), rand.IntN(256))
	if err := os.WriteFile(cloudConfig, []byte(fmt.Sprintf("kubeconfig: %s\ninstances: %d\nzones: [zone-a, zone-b]\nloadBalancerCIDR: %s\n",
		s.Kubeconfig, c.Nodes, lbCIDR)), 0o600); err != nil {
		t.Fatal(err)
	}
	ccm := daemon("platform-cloud-controller-manager", "--cloud-provider=simcloud",
		"--cloud-provider-binary", framework.Binary(t, "platform-simcloud"), "--cloud-config", cloudConfig,
		"--allocate-node-cidrs", "--cluster-cidr", clusterCIDR)
	c.Targets = append(c.Targets, Target{Name: "platform-simcloud", Pid: func() (int, error) { return ChildPid(ccm.Pid()) }})

	nodeDir := filepath.Join(dir, "nodes")
	if err := os.MkdirAll(nodeDir, 0o700); err != nil {
		t.Fatal(err)
	}
	for i := range c.Nodes {
		name := fmt.Sprintf("simnode-%d", i)
		if err := s.SignClient(t, "system:node:"+name, "system:nodes").Write(nodeDir, name); err != nil {
			t.Fatal(err)
		}
	}
	sim := s.StartProcess(t, "platform-simnode", "--kubeconfig", s.UserKubeconfig(t, "system:node:simnode-0", "system:nodes"),
		"--node-credentials-dir", nodeDir, fmt.Sprintf("--nodes=%d", c.Nodes), "--zones=zone-a,zone-b",
		"--readiness-delay=500ms", "--job-pod-duration=2s", "--cloud-provider=external")
	c.Daemons = append(c.Daemons, sim)
	c.Targets = append(c.Targets, Target{Name: "platform-simnode", Pid: func() (int, error) { return sim.Pid(), nil }})

}

// adminClients are the typed clients of the admin, with room for the
// workload's bursts.
func adminClients(t *testing.T, s *framework.Server) *client.Set {
	t.Helper()
	kc, err := rest.LoadKubeconfig(s.Kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	rc, err := kc.ClientConfig("")
	if err != nil {
		t.Fatal(err)
	}
	rc.QPS, rc.Burst, rc.Timeout = 50, 100, 30*time.Second
	restClient, err := rest.NewClient(rc)
	if err != nil {
		t.Fatal(err)
	}
	return client.NewSet(restClient)

}

// Exited names the daemons that have exited, with their log's tail.
func (c *Cluster) Exited() []string {
	var out []string
	select {
	case <-c.Server.Exited():
		out = append(out, fmt.Sprintf("platform-apiserver exited:\n%s", c.Server.LogTail(20)))
	default:
	}
	for _, p := range c.Daemons {
		select {
		case <-p.Exited():
			out = append(out, fmt.Sprintf("%s exited (code %d):\n%s", p.Name, p.ExitCode(), framework.Tail(p.LogPath, 20)))
		default:
		}
	}
	return out
}
