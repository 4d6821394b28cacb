package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"
)

// startControlPlane runs the scheduler, the controller manager and three
// simulated nodes against s, as make run does.
func startControlPlane(t *testing.T, s *Server) {
	t.Helper()
	common := []string{"--bind-address", "127.0.0.1", "--leader-elect-lease-duration=4s",
		"--leader-elect-renew-deadline=3s", "--leader-elect-retry-period=500ms"}
	s.StartProcess(t, "platform-scheduler", append(common, "--secure-port", fmt.Sprint(freePort(t)), "--port=0")...)
	s.StartProcess(t, "platform-controller-manager", append(common, "--secure-port", fmt.Sprint(freePort(t)))...)
	s.StartProcess(t, "platform-simnode", "--nodes=3", "--readiness-delay=500ms", "--job-pod-duration=2s")
	Eventually(t, 60*time.Second, "three Ready nodes", func() string {
		out := s.Kubectl(t, "get", "nodes", "--no-headers")
		if n := strings.Count(out.Stdout, " Ready"); n != 3 {
			return out.String()
		}
		return ""
	})
}

// field reads a JSONPath of one object through kubectl.
func (s *Server) field(t testing.TB, path string, args ...string) string {
	t.Helper()
	r := s.Kubectl(t, append(args, "-o", "jsonpath="+path)...)
	if r.Code != 0 {
		return "<" + strings.TrimSpace(r.Stderr) + ">"
	}
	return strings.TrimSpace(r.Stdout)
}

func want(got, want string) string {
	if got == want {
		return ""
	}
	return fmt.Sprintf("got %q, want %q", got, want)
}

// TestControlPlane applies deploy/examples/ to the whole control plane and
// follows each workload to Running or Succeeded, then scales the
// Deployment, rolls it out and back, deletes it with Foreground
// propagation, and deletes a namespace full of objects.
func TestControlPlane(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	startControlPlane(t, s)

	s.MustKubectl(t, "apply", "-f", "../../deploy/examples/")

	Eventually(t, 90*time.Second, "deployment web available", func() string {
		return want(s.field(t, "{.status.availableReplicas}/{.status.updatedReplicas}", "get", "deployment", "web"), "3/3")
	})
	Eventually(t, 30*time.Second, "web pods Running", func() string {
		return want(s.field(t, "{range .items[*]}{.status.phase} {end}", "get", "pods", "-l", "app=web"), "Running Running Running")
	})
	Eventually(t, 60*time.Second, "daemonset on every node", func() string {
		return want(s.field(t, "{.status.desiredNumberScheduled}/{.status.numberReady}", "get", "daemonset", "log-collector"), "3/3")
	})
	Eventually(t, 90*time.Second, "job complete", func() string {
		return want(s.field(t, "{.status.succeeded}", "get", "job", "compute-pi"), "4")
	})
	Eventually(t, 30*time.Second, "endpoints of web", func() string {
		ips := s.field(t, "{.subsets[*].addresses[*].ip}", "get", "endpoints", "web")
		if n := len(strings.Fields(ips)); n != 3 {
			return fmt.Sprintf("%d ready addresses: %q", n, ips)
		}
		return ""
	})
	Eventually(t, 30*time.Second, "default service account", func() string {
		return want(s.field(t, "{.metadata.name}", "get", "serviceaccount", "default"), "default")
	})

	t.Run("scale", func(t *testing.T) {
		for _, n := range []string{"5", "3"} {
			s.MustKubectl(t, "scale", "deployment/web", "--replicas="+n)
			Eventually(t, 60*time.Second, "web at "+n+" replicas", func() string {
				got := s.field(t, "{.status.availableReplicas}/{.status.replicas}", "get", "deployment", "web")
				if got != n+"/"+n {
					return got
				}
				pods := strings.Fields(s.field(t, "{range .items[*]}{.status.phase} {end}", "get", "pods", "-l", "app=web"))
				return want(strconv.Itoa(len(pods)), n)
			})
		}
	})

	t.Run("rolling update and rollback", func(t *testing.T) {
		s.MustKubectl(t, "set", "image", "deployment/web", "nginx=nginx:1.26")
		Eventually(t, 90*time.Second, "rolled out to nginx:1.26", func() string {
			got := s.field(t, "{.status.updatedReplicas}/{.status.availableReplicas}/{.status.replicas}", "get", "deployment", "web")
			if got != "3/3/3" {
				return got
			}
			return want(s.field(t, "{range .items[*]}{.spec.containers[0].image} {end}", "get", "pods", "-l", "app=web", "--field-selector=status.phase=Running"), "nginx:1.26 nginx:1.26 nginx:1.26")
		})
		body := WriteManifest(t, `{"apiVersion":"apps/v1","kind":"DeploymentRollback","name":"web","rollbackTo":{"revision":1}}`)
		s.MustKubectl(t, "create", "--raw", "/apis/apps/v1/namespaces/default/deployments/web/rollback", "-f", body)
		Eventually(t, 90*time.Second, "rolled back to nginx:1.25", func() string {
			img := s.field(t, "{.spec.template.spec.containers[0].image}", "get", "deployment", "web")
			if img != "nginx:1.25" {
				return "template image " + img
			}
			return want(s.field(t, "{.status.updatedReplicas}/{.status.availableReplicas}/{.status.replicas}", "get", "deployment", "web"), "3/3/3")
		})
		// The stock kubectl's own rollback reads the upstream revision
		// annotation, which the deployment loop writes beside ours.
		if out := s.MustKubectl(t, "rollout", "history", "deployment/web"); !strings.Contains(out, "2 ") || !strings.Contains(out, "3 ") {
			t.Fatalf("rollout history lists no revisions 2 and 3:\n%s", out)
		}
		s.MustKubectl(t, "rollout", "undo", "deployment/web")
		Eventually(t, 90*time.Second, "kubectl rollout undo back to nginx:1.26", func() string {
			img := s.field(t, "{.spec.template.spec.containers[0].image}", "get", "deployment", "web")
			if img != "nginx:1.26" {
				return "template image " + img
			}
			return want(s.field(t, "{.status.updatedReplicas}/{.status.availableReplicas}/{.status.replicas}", "get", "deployment", "web"), "3/3/3")
		})
	})

	t.Run("cron job runs", func(t *testing.T) {
		Eventually(t, 100*time.Second, "a job of cronjob hello", func() string {
			if s.field(t, "{.status.lastScheduleTime}", "get", "cronjobs.v1beta1.batch", "hello") == "" {
				return "no lastScheduleTime"
			}
			return ""
		})
	})

	t.Run("foreground deletion", func(t *testing.T) {
		s.MustKubectl(t, "delete", "deployment", "web", "--cascade=foreground", "--wait=false")
		Eventually(t, 60*time.Second, "deployment, replica sets and pods gone", func() string {
			left := s.field(t, "{range .items[*]}{.kind}/{.metadata.name} {end}", "get", "deployments,replicasets,pods", "-l", "app=web")
			if strings.Contains(s.field(t, "{.items[*].metadata.name}", "get", "deployments"), "web") {
				return "deployment still there; " + left
			}
			if left != "" {
				return left
			}
			return ""
		})
	})

	t.Run("namespace deletion", func(t *testing.T) {
		s.MustKubectl(t, "create", "namespace", "doomed")
		for i := range 20 {
			s.MustKubectl(t, "create", "configmap", fmt.Sprintf("cm-%d", i), "-n", "doomed", "--from-literal=k=v")
		}
		s.MustKubectl(t, "create", "deployment", "d", "-n", "doomed", "--image=nginx:1.25", "--replicas=2")
		s.MustKubectl(t, "delete", "namespace", "doomed", "--wait=false")
		Eventually(t, 90*time.Second, "namespace doomed gone", func() string {
			r := s.Kubectl(t, "get", "namespace", "doomed")
			if r.Code == 0 {
				return r.Stdout
			}
			return ""
		})
	})
}
