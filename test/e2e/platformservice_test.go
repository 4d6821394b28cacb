package e2e

import (
	"encoding/json"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// endpointIPs returns the addresses of the platform Endpoints, as
// "ip:port", sorted, or a description of why they cannot be read.
func endpointIPs(c *http.Client, url string) ([]string, string) {
	resp, body, err := call(c, "GET", url+"/api/v1/namespaces/default/endpoints/platform", nil)
	if err != nil || resp.StatusCode != http.StatusOK {
		return nil, describe(resp, body, err)
	}
	var ep struct {
		Subsets []struct {
			Addresses []struct{ IP string }
			Ports     []struct {
				Name string
				Port int
			}
		}
	}
	if err := json.Unmarshal(body, &ep); err != nil {
		return nil, err.Error()
	}
	var out []string
	for _, s := range ep.Subsets {
		for _, a := range s.Addresses {
			for _, p := range s.Ports {
				if p.Name == "https" {
					out = append(out, net.JoinHostPort(a.IP, strconv.Itoa(p.Port)))
				}
			}
		}
	}
	slices.Sort(out)
	return out, ""
}

// TestPlatformServiceEndpoints runs three API servers on one etcd, each
// advertising its own loopback address: the platform Service exists with
// port 443 to the secure port and the Endpoints list all three; a server
// killed with SIGKILL leaves them within the lease TTL, one stopped with
// SIGTERM leaves them at once.
func TestPlatformServiceEndpoints(t *testing.T) {
	t.Parallel()
	const ttl = 3 * time.Second
	etcd := startEtcd(t)
	port := freePort(t)
	var servers []*Server
	var want []string
	for _, ip := range []string{"127.0.0.2", "127.0.0.3", "127.0.0.4"} {
		servers = append(servers, StartServerWith(t, ServerConfig{IP: ip, Port: port, EtcdServers: etcd,
			Args: []string{"--endpoint-reconciler-lease-ttl", ttl.String()}}))
		want = append(want, net.JoinHostPort(ip, strconv.Itoa(port)))
	}
	a, b, c := servers[0], servers[1], servers[2]
	client := a.client(t, 5*time.Second)
	wantEndpoints := func(want []string) func() string {
		return func() string {
			got, why := endpointIPs(client, a.URL)
			if why != "" {
				return why
			}
			if !slices.Equal(got, want) {
				return "endpoints " + strings.Join(got, ",") + ", want " + strings.Join(want, ",")
			}
			return ""
		}
	}
	Eventually(t, 10*time.Second, "all three servers in the platform endpoints", wantEndpoints(want))

	svc := a.GetJSON(t, "get", "service", "platform", "-n", "default")
	WantField(t, svc, "ClusterIP", "spec", "type")
	WantField(t, svc, []any{map[string]any{"name": "https", "port": 443, "protocol": "TCP", "targetPort": port}}, "spec", "ports")
	WantNoField(t, svc, "spec", "selector")
	out := a.MustKubectl(t, "get", "endpoints", "platform", "-n", "default")
	WantContains(t, out, "127.0.0.2:"+strconv.Itoa(port))

	killed := time.Now()
	c.Kill(t)
	Eventually(t, ttl+3*time.Second, "the killed server leaves the endpoints", wantEndpoints(want[:2]))
	gone := time.Since(killed)
	// Its record expires at most ttl after its last renewal, which came
	// before the kill; etcd's expiry check and the others' rewrite add a
	// fraction of a second.
	if gone > ttl+1500*time.Millisecond {
		t.Errorf("the killed server left the endpoints %v after SIGKILL, want within the TTL of %v", gone, ttl)
	}

	stopped := time.Now()
	b.Signal(t, syscall.SIGTERM)
	Eventually(t, 2*time.Second, "the stopped server leaves the endpoints", wantEndpoints(want[:1]))
	left := time.Since(stopped)
	if code := b.WaitExit(t, 15*time.Second); code != 0 {
		t.Errorf("exit code %d after SIGTERM, want 0", code)
	}
	t.Logf("three servers listed; killed one gone %v after SIGKILL (TTL %v); stopped one gone %v after SIGTERM", gone, ttl, left)
}
