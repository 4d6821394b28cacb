package e2e

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"platform.io/platform/pkg/component/certs"
	"platform.io/platform/test/e2e/framework"
)

// rbacServer starts an API server as `make run` does
// (framework.RBACConfig).
func rbacServer(t *testing.T) *Server {
	t.Helper()
	return StartServerWith(t, framework.RBACConfig(t))
}

func (s *Server) signClient(t testing.TB, user string, groups ...string) *certs.Pair {
	t.Helper()
	return s.SignClient(t, user, groups...)
}

func (s *Server) userKubeconfig(t testing.TB, user string, groups ...string) string {
	t.Helper()
	return s.UserKubeconfig(t, user, groups...)
}

// TestKubectlRBAC: the stock kubectl against Node,RBAC. A user with a
// client certificate and no binding is refused in upstream's words; the
// admin grants her a Role in one namespace, after which she may do what it
// says and nothing more. auth whoami, auth can-i (and --list), --as and
// create token work.
func TestKubectlRBAC(t *testing.T) {
	t.Parallel()
	s := rbacServer(t)
	alice := s.userKubeconfig(t, "alice")
	as := func(args ...string) []string { return append([]string{"--kubeconfig", alice}, args...) }

	WantMatch(t, s.MustKubectl(t, as("auth", "whoami")...), `Username\s+alice`, `Groups\s+\[system:authenticated\]`)
	r := s.KubectlFails(t, as("get", "pods")...)
	WantContains(t, r.Stderr, `Error from server (Forbidden): pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"`)
	if r := s.Kubectl(t, "auth", "can-i", "list", "pods", "--as", "alice"); r.Code == 0 || strings.TrimSpace(r.Stdout) != "no" {
		t.Errorf("admin: can-i list pods --as alice before the binding: %s", r)
	}

	s.MustKubectl(t, "create", "role", "pod-reader", "--verb=get,list,watch", "--resource=pods")
	s.MustKubectl(t, "create", "rolebinding", "alice-reads-pods", "--role=pod-reader", "--user=alice")
	Eventually(t, 10*time.Second, "alice may list pods", func() string {
		if r := s.Kubectl(t, as("get", "pods")...); r.Code != 0 {
			return r.String()
		}
		return ""
	})
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"list", "pods"}, "yes"},
		{[]string{"watch", "pods"}, "yes"},
		{[]string{"create", "pods"}, "no"},
		{[]string{"delete", "pods"}, "no"},
		{[]string{"list", "pods", "-n", "platform-system"}, "no"},
		{[]string{"list", "secrets"}, "no"},
		{[]string{"create", "roles"}, "no"},
	} {
		got := strings.TrimSpace(s.Kubectl(t, as(append([]string{"auth", "can-i"}, c.args...)...)...).Stdout)
		if got != c.want {
			t.Errorf("alice: can-i %v = %q, want %q", c.args, got, c.want)
		}
		got = strings.TrimSpace(s.Kubectl(t, append([]string{"auth", "can-i", "--as", "alice"}, c.args...)...).Stdout)
		if got != c.want {
			t.Errorf("admin --as alice: can-i %v = %q, want %q", c.args, got, c.want)
		}
	}
	list := s.MustKubectl(t, as("auth", "can-i", "--list")...)
	if row := rowOrNil(list, "pods"); row == nil || !strings.Contains(strings.Join(row, " "), "[get list watch]") {
		t.Errorf("alice: can-i --list has no pods row with [get list watch]:\n%s", list)
	}

	r = s.KubectlFails(t, as("get", "pods", "-n", "platform-system")...)
	WantContains(t, r.Stderr, `pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "platform-system"`)
	r = s.KubectlFails(t, as("create", "configmap", "x")...)
	WantContains(t, r.Stderr, `configmaps is forbidden: User "alice" cannot create resource "configmaps" in API group "" in the namespace "default"`)
	r = s.KubectlFails(t, as("create", "role", "more", "--verb=*", "--resource=secrets")...)
	// kubectl finds the group through discovery, under the platform name.
	WantContains(t, r.Stderr, `User "alice" cannot create resource "roles" in API group "rbac.authorization.platform.io" in the namespace "default"`)
	r = s.KubectlFails(t, as("get", "pods", "--as", "bob")...)
	WantContains(t, r.Stderr, `users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope`)
	// The admin impersonating alice has exactly her rights.
	s.MustKubectl(t, "get", "pods", "--as", "alice")
	r = s.KubectlFails(t, "get", "secrets", "--as", "alice")
	WantContains(t, r.Stderr, `secrets is forbidden: User "alice" cannot list resource "secrets" in API group "" in the namespace "default"`)

	s.MustKubectl(t, "create", "serviceaccount", "robot")
	token := strings.TrimSpace(s.MustKubectl(t, "create", "token", "robot", "--duration=10m"))
	robot := tokenKubeconfig(t, s, token)
	WantMatch(t, s.MustKubectl(t, "--kubeconfig", robot, "auth", "whoami"),
		`Username\s+system:serviceaccount:default:robot`, `system:serviceaccounts:default`)
	r = s.KubectlFails(t, "--kubeconfig", robot, "get", "pods")
	WantContains(t, r.Stderr, `User "system:serviceaccount:default:robot" cannot list resource "pods"`)
	s.MustKubectl(t, "create", "rolebinding", "robot-reads-pods", "--role=pod-reader", "--serviceaccount=default:robot")
	Eventually(t, 10*time.Second, "the service account may list pods", func() string {
		if r := s.Kubectl(t, "--kubeconfig", robot, "get", "pods"); r.Code != 0 {
			return r.String()
		}
		return ""
	})
}

func (s *Server) startDaemonAs(t *testing.T, name, kubeconfig string, args ...string) *Process {
	t.Helper()
	return s.StartDaemonAs(t, name, kubeconfig, args...)
}

// TestControlPlaneUnderNodeRBAC: the scheduler, the controller manager and
// the simulated nodes each on their own identity (no system:masters) run
// a Deployment under Node,RBAC with the admission plugins of `make run`
// (its pods get their service account's token volume; a node may not give
// itself a role label nor label another node); the controller manager publishes
// --root-ca-file in every namespace; the scheduler's /metrics is delegated to
// the API server: 200 for system:monitoring, 403 for another user and for
// a request without credentials (system:anonymous), 401 for a token no
// one knows.
func TestControlPlaneUnderNodeRBAC(t *testing.T) {
	t.Parallel()
	s := rbacServer(t)
	nodeDir := t.TempDir()
	const nodes = 2
	for i := range nodes {
		name := fmt.Sprintf("simnode-%d", i)
		if err := s.signClient(t, "system:node:"+name, "system:nodes").Write(nodeDir, name); err != nil {
			t.Fatal(err)
		}
	}
	common := []string{"--bind-address", "127.0.0.1", "--leader-elect-lease-duration=4s",
		"--leader-elect-renew-deadline=3s", "--leader-elect-retry-period=500ms"}
	schedPort := freePort(t)
	_ = s.startDaemonAs(t, "platform-scheduler", s.userKubeconfig(t, "system:platform-scheduler"),
		append(common, "--secure-port", fmt.Sprint(schedPort), "--port=0")...)
	rootCA := filepath.Join(s.CertDir, "apiserver.crt")
	cmLog := s.startDaemonAs(t, "platform-controller-manager", s.userKubeconfig(t, "system:platform-controller-manager"),
		append(common, "--secure-port", fmt.Sprint(freePort(t)), "--root-ca-file", rootCA, "--use-service-account-credentials")...)
	// The simulated cloud is the cloud's, not the cluster's: it reads the
	// nodes as the admin. The cloud controller manager is itself.
	cloudConfig := filepath.Join(nodeDir, "simcloud.yaml")
	cfg := fmt.Sprintf("kubeconfig: %s\ninstances: %d\nzones: [zone-a]\nloadBalancerCIDR: %s\n", s.Kubeconfig, nodes, lbRange())
	if err := os.WriteFile(cloudConfig, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	s.startDaemonAs(t, "platform-cloud-controller-manager", s.userKubeconfig(t, "system:platform-cloud-controller-manager"),
		append(common, "--secure-port", fmt.Sprint(freePort(t)), "--cloud-provider=simcloud",
			"--cloud-provider-binary", binary(t, "platform-simcloud"), "--cloud-config", cloudConfig)...)
	// The nodes register for an external cloud, tainted until the cloud
	// controller manager initializes them: no pod lands before it has.
	s.StartProcess(t, "platform-simnode", "--kubeconfig", s.userKubeconfig(t, "system:node:simnode-0", "system:nodes"),
		"--node-credentials-dir", nodeDir, fmt.Sprintf("--nodes=%d", nodes), "--readiness-delay=500ms", "--cloud-provider=external")

	Eventually(t, 60*time.Second, "two Ready nodes", func() string {
		out := s.Kubectl(t, "get", "nodes", "--no-headers")
		if n := strings.Count(out.Stdout, " Ready"); n != nodes {
			return out.String()
		}
		return ""
	})
	Eventually(t, 60*time.Second, "nodes initialized by the cloud controller manager", func() string {
		return want(s.field(t, `{range .items[*]}{.spec.providerID},{.spec.taints} {end}`, "get", "nodes"),
			"simcloud://simnode-0, simcloud://simnode-1,")
	})
	s.MustKubectl(t, "create", "deployment", "web", "--image=nginx:latest", "--replicas=2")
	Eventually(t, 90*time.Second, "the Deployment available with 2 replicas", func() string {
		return want(s.field(t, "{.status.availableReplicas}", "get", "deployment", "web"), "2")
	})
	// Each node reported its pods' status as itself: the Node authorizer
	// allowed it only for pods bound to that node.
	for _, p := range strings.Fields(s.MustKubectl(t, "get", "pods", "-l", "app=web", "-o", "jsonpath={.items[*].spec.nodeName}")) {
		if !strings.HasPrefix(p, "simnode-") {
			t.Errorf("pod on %q", p)
		}
	}
	// ServiceAccount admission: the pods run as the default account the
	// controller manager made, with the projected token volume.
	WantMatch(t, s.MustKubectl(t, "get", "pods", "-l", "app=web", "-o", "jsonpath={.items[*].spec.serviceAccountName} {.items[*].spec.volumes[*].name}"),
		`^default default platform-api-access-[a-z0-9]{5} platform-api-access-[a-z0-9]{5}$`)
	// NodeRestriction: a node labels itself, but not with a node-role
	// label, and not another node.
	node0 := s.userKubeconfig(t, "system:node:simnode-0", "system:nodes")
	s.MustKubectl(t, "--kubeconfig", node0, "label", "node", "simnode-0", "example.com/rack=r1")
	r := s.KubectlFails(t, "--kubeconfig", node0, "label", "node", "simnode-0", "node-role.platform.io/control-plane=")
	WantContains(t, r.Stderr, `nodes "simnode-0" is forbidden: is not allowed to modify labels: node-role.platform.io/control-plane`)
	r = s.KubectlFails(t, "--kubeconfig", node0, "label", "node", "simnode-1", "example.com/rack=r1")
	WantContains(t, r.Stderr, `Error from server (Forbidden)`)

	// root-ca-cert-publisher: the bundle in every namespace, put back when
	// deleted or changed.
	caPEM, err := os.ReadFile(rootCA)
	if err != nil {
		t.Fatal(err)
	}
	s.MustKubectl(t, "create", "namespace", "team-a")
	published := func(ns string) func() string {
		return func() string {
			return want(s.field(t, `{.data.ca\.crt}`, "get", "configmap", "platform-root-ca.crt", "-n", ns), strings.TrimSpace(string(caPEM)))
		}
	}
	Eventually(t, 20*time.Second, "platform-root-ca.crt in default", published("default"))
	Eventually(t, 20*time.Second, "platform-root-ca.crt in team-a", published("team-a"))
	s.MustKubectl(t, "delete", "configmap", "platform-root-ca.crt", "-n", "team-a")
	Eventually(t, 20*time.Second, "platform-root-ca.crt recreated", published("team-a"))
	s.MustKubectl(t, "patch", "configmap", "platform-root-ca.crt", "-n", "team-a", "--type=merge", "-p", `{"data":{"ca.crt":"forged"}}`)
	Eventually(t, 20*time.Second, "platform-root-ca.crt put back", published("team-a"))

	// --use-service-account-credentials: each loop acts as its own
	// account. Without its binding the replicaset loop can no longer create
	// pods, while the manager's own identity still could.
	for _, sa := range []string{"deployment-controller", "replicaset-controller", "root-ca-cert-publisher"} {
		s.MustKubectl(t, "get", "serviceaccount", sa, "-n", "platform-system")
	}
	s.MustKubectl(t, "delete", "clusterrolebinding", "system:controller:replicaset-controller")
	s.MustKubectl(t, "scale", "deployment", "web", "--replicas=3")
	Eventually(t, 30*time.Second, "the replicaset loop refused as its service account", func() string {
		if strings.Contains(tail(cmLog.LogPath, 200), `User \"system:serviceaccount:platform-system:replicaset-controller\" cannot create resource \"pods\"`) {
			return ""
		}
		return "no 403 for the replicaset-controller account in the log"
	})
	if n := strings.Fields(s.MustKubectl(t, "get", "pods", "-l", "app=web", "-o", "jsonpath={.items[*].metadata.name}")); len(n) != 2 {
		t.Errorf("pods %v: want still 2 without the replicaset loop's binding", n)
	}

	url := fmt.Sprintf("https://127.0.0.1:%d/metrics", schedPort)
	for _, c := range []struct {
		name   string
		client *http.Client
		token  string
		want   int
	}{
		{"system:monitoring", s.daemonClient(s.signClient(t, "prometheus", "system:monitoring")), "", http.StatusOK},
		{"authenticated without the role", s.daemonClient(s.signClient(t, "alice")), "", http.StatusForbidden},
		{"no credentials (system:anonymous)", s.daemonClient(nil), "", http.StatusForbidden},
		{"a token no one issued", s.daemonClient(nil), "not-a-token", http.StatusUnauthorized},
	} {
		Eventually(t, 20*time.Second, c.name+" on /metrics", func() string {
			req, err := http.NewRequest(http.MethodGet, url, nil)
			if err != nil {
				t.Fatal(err)
			}
			if c.token != "" {
				req.Header.Set("Authorization", "Bearer "+c.token)
			}
			resp, err := c.client.Do(req)
			if err != nil {
				return err.Error()
			}
			resp.Body.Close()
			if resp.StatusCode != c.want {
				return fmt.Sprintf("HTTP %d, want %d", resp.StatusCode, c.want)
			}
			return ""
		})
	}
}

func (s *Server) daemonClient(id *certs.Pair) *http.Client { return s.DaemonClient(id) }
