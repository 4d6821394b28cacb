package e2e

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"platform.io/platform/test/e2e/framework"
)

// localUpReady is the last line hack/local-up.sh prints once all is up.
const localUpReady = "Press Ctrl-C to stop."

// TestLocalUp runs `make run`'s script, hack/local-up.sh, on the built
// binaries with every port it opens picked free and the metrics server
// scraping every 3s (longer than the rest takes to start), and checks a
// newcomer's first steps: as soon as it prints the admin kubeconfig,
// kubectl top nodes shows every node, and kubectl top pods -A a new
// Deployment's pods shortly after. SIGTERM then stops every process it
// started.
func TestLocalUp(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("hack/local-up.sh needs curl")
	}
	binDir := filepath.Dir(apiserverBinary(t))
	local := t.TempDir()
	ports := map[string]int{}
	// go run ./hack/devcerts: the toolchain that runs this test, with its
	// build and module caches, which a private HOME would otherwise move.
	goBin := filepath.Join(runtime.GOROOT(), "bin")
	goEnv, err := exec.Command(filepath.Join(goBin, "go"), "env", "GOCACHE", "GOMODCACHE", "GOPATH").Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	caches := strings.Fields(string(goEnv))
	if len(caches) != 3 {
		t.Fatalf("go env GOCACHE GOMODCACHE GOPATH: %q", goEnv)
	}
	env := []string{
		"LOCAL_DIR=" + local, "PLATFORM_BIN_DIR=" + binDir, "NODES=2", "METRIC_RESOLUTION=3s",
		"KUBECTL=" + kubectlBinary(t), "HOME=" + filepath.Join(local, "home"),
		"PATH=" + goBin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"GOCACHE=" + caches[0], "GOMODCACHE=" + caches[1], "GOPATH=" + caches[2],
	}
	for _, name := range []string{"API_PORT", "SCHEDULER_PORT", "SCHEDULER_INSECURE_PORT", "CONTROLLER_MANAGER_PORT",
		"CLOUD_CONTROLLER_MANAGER_PORT", "METRICS_SERVER_PORT", "SIMCLOUD_CONTROL_PORT"} {
		ports[name] = freePort(t)
		env = append(env, fmt.Sprintf("%s=%d", name, ports[name]))
	}
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); !strings.HasPrefix(k, "KUBE") && !slices.Contains([]string{"HOME", "PATH", "GOCACHE", "GOMODCACHE", "GOPATH"}, k) {
			env = append(env, kv)
		}
	}
	logPath := filepath.Join(local, "local-up.out")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "hack/local-up.sh")
	cmd.Dir = "../.."
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = logFile, logFile
	// A process group of its own: if the script cannot stop its
	// daemons, the test kills what is left of them.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		logFile.Close()
		close(exited)
	}()
	stopped := false
	t.Cleanup(func() {
		if !stopped {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
		}
		if t.Failed() {
			t.Logf("hack/local-up.sh output:\n%s", tail(logPath, 40))
			for _, d := range []string{"apiserver", "simnode", "metrics-server", "controller-manager", "cloud-controller-manager"} {
				t.Logf("%s log, last lines:\n%s", d, tail(filepath.Join(local, "logs", d+".log"), 15))
			}
		}
	})

	Eventually(t, 3*time.Minute, "hack/local-up.sh up", func() string {
		select {
		case <-exited:
			t.Fatalf("hack/local-up.sh exited (%v) before it was up:\n%s", cmd.ProcessState, tail(logPath, 40))
		default:
		}
		out, _ := os.ReadFile(logPath)
		if !strings.Contains(string(out), localUpReady) {
			return "not up yet"
		}
		return ""
	})
	out, _ := os.ReadFile(logPath)
	t.Logf("hack/local-up.sh up after %v", time.Since(start))
	kubeconfig := filepath.Join(local, "admin.kubeconfig")
	WantContains(t, string(out), "export KUBECONFIG="+kubeconfig, "kubectl top nodes",
		"registered the APIServices v1beta1.metrics.platform.io and v1beta1.metrics.k8s.io")
	s := &Server{&framework.Server{Dir: local, Kubeconfig: kubeconfig}}

	// At once, with no retry: what the newcomer types first.
	top := s.MustKubectl(t, "top", "nodes")
	WantHeader(t, top, "NAME", "CPU(cores)", "CPU(%)", "MEMORY(bytes)", "MEMORY(%)")
	TableRow(t, top, "simnode-0")
	TableRow(t, top, "simnode-1")
	s.MustKubectl(t, "top", "pods", "-A")

	s.MustKubectl(t, "create", "deployment", "web", "--image=nginx:latest", "--replicas=2")
	Eventually(t, 60*time.Second, "kubectl top pods -A shows web's pods", func() string {
		r := s.Kubectl(t, "top", "pods", "-A", "-l", "app=web", "--no-headers")
		if n := strings.Count(r.Stdout, "default "); r.Code != 0 || n != 2 {
			return r.String()
		}
		return ""
	})

	t.Logf("web's pods in kubectl top pods -A after %v", time.Since(start))
	stopped = true
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-exited:
	case <-time.After(60 * time.Second):
		stopped = false
		t.Fatalf("hack/local-up.sh did not stop within 60s of SIGTERM")
	}
	for name, port := range ports {
		if c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second); err == nil {
			c.Close()
			t.Errorf("%s %d still open after hack/local-up.sh stopped", name, port)
		}
	}
}
