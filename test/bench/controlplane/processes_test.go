package controlplane

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// binDir is where make build puts the binaries (make bench sets it).
func binDir(b *testing.B) string {
	dir := os.Getenv("PLATFORM_BIN_DIR")
	if dir == "" {
		b.Skip("PLATFORM_BIN_DIR is not set; run `make bench`")
	}
	return dir
}

func freePort(b *testing.B) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// start runs a binary from binDir until the benchmark ends.
func start(b *testing.B, dir, name string, args ...string) {
	cmd := exec.Command(filepath.Join(binDir(b), name), args...)
	logPath := filepath.Join(dir, name+".log")
	f, err := os.Create(logPath)
	if err != nil {
		b.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		b.Fatalf("start %s: %v", name, err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); f.Close(); close(done) }()
	b.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		if b.Failed() {
			data, _ := os.ReadFile(logPath)
			if len(data) > 4000 {
				data = data[len(data)-4000:]
			}
			b.Logf("%s log tail:\n%s", name, data)
		}
	})
}

// controlPlane starts every daemon and returns the API server's plain
// HTTP address. The daemons get generous client limits so that the
// benchmark measures the loops, not the default 20 QPS.
func controlPlane(b *testing.B, nodes int) string {
	dir := b.TempDir()
	port := freePort(b)
	master := fmt.Sprintf("http://127.0.0.1:%d", port)
	start(b, dir, "platform-apiserver", "--data-dir", filepath.Join(dir, "etcd"), "--cert-dir", filepath.Join(dir, "certs"),
		"--bind-address", "127.0.0.1", "--secure-port", fmt.Sprint(freePort(b)),
		"--insecure-port", fmt.Sprint(port), "--insecure-bind-address", "127.0.0.1")
	waitHTTP(b, master+"/readyz")
	limits := []string{"--master", master, "--secure-port=0", "--leader-elect=false",
		"--platform-api-qps=1000", "--platform-api-burst=2000"}
	start(b, dir, "platform-scheduler", append(limits, "--port=0")...)
	start(b, dir, "platform-controller-manager", limits...)
	start(b, dir, "platform-simnode", "--master", master, fmt.Sprintf("--nodes=%d", nodes),
		"--readiness-delay=0s", "--qps=1000", "--burst=2000", "--pods=110")
	// The ServiceAccount admission plugin refuses pods until the
	// controller manager has made the namespace's default account; the
	// clock starts after that.
	waitHTTP(b, master+"/api/v1/namespaces/default/serviceaccounts/default")
	return master
}

func waitHTTP(b *testing.B, url string) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for ctx.Err() == nil {
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	b.Fatalf("%s not ready within 60s", url)
}
