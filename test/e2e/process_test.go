package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Process is a daemon (platform-scheduler, platform-controller-manager,
// platform-simnode) started by a test against a Server.
type Process struct {
	Name    string
	LogPath string
	cmd     *exec.Cmd
	exited  chan struct{}
}

// binary returns the path of a built binary in PLATFORM_BIN_DIR.
func binary(t testing.TB, name string) string {
	t.Helper()
	bin := filepath.Join(filepath.Dir(apiserverBinary(t)), name)
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("%s is not built (run `make build`): %v", name, err)
	}
	return bin
}

// StartProcess runs the binary name with --kubeconfig set to s's and the
// given flags; it is stopped with SIGTERM when the test ends, and its log
// tail is shown if the test failed.
func (s *Server) StartProcess(t *testing.T, name string, args ...string) *Process {
	t.Helper()
	bin := binary(t, name)
	p := &Process{Name: name, LogPath: filepath.Join(s.dir, fmt.Sprintf("%s-%d.log", name, time.Now().UnixNano())), exited: make(chan struct{})}
	logFile, err := os.Create(p.LogPath)
	if err != nil {
		t.Fatal(err)
	}
	p.cmd = exec.Command(bin, append([]string{"--kubeconfig", s.Kubeconfig}, args...)...)
	p.cmd.Stdout, p.cmd.Stderr = logFile, logFile
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	go func() {
		_ = p.cmd.Wait()
		logFile.Close()
		close(p.exited)
	}()
	t.Cleanup(func() {
		p.Stop()
		if t.Failed() {
			t.Logf("%s log (%s), last lines:\n%s", name, p.LogPath, tail(p.LogPath, 40))
		}
	})
	return p
}

// Stop sends SIGTERM and waits up to stopTimeout, then kills.
func (p *Process) Stop() {
	select {
	case <-p.exited:
		return
	default:
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.exited:
	case <-time.After(stopTimeout):
		_ = p.cmd.Process.Kill()
		<-p.exited
	}
}

// Kill sends SIGKILL and waits for the exit.
func (p *Process) Kill() {
	_ = p.cmd.Process.Kill()
	<-p.exited
}

func tail(path string, n int) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Sprintf("(read log: %v)", err)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// Eventually runs check every 250ms until it returns "" or within passes,
// then fails t with check's last answer.
func Eventually(t testing.TB, within time.Duration, what string, check func() string) {
	t.Helper()
	deadline := time.Now().Add(within)
	last := ""
	for time.Now().Before(deadline) {
		if last = check(); last == "" {
			return
		}
		time.Sleep(250 * time.Millisecond)
	}
	t.Fatalf("%s: not within %s: %s", what, within, last)
}
