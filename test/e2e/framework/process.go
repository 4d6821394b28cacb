package framework

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

// Binary returns the path of a built binary in PLATFORM_BIN_DIR.
func Binary(t testing.TB, name string) string {
	t.Helper()
	bin := filepath.Join(filepath.Dir(APIServerBinary(t)), name)
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
	logPath := filepath.Join(s.Dir, fmt.Sprintf("%s-%d.log", name, time.Now().UnixNano()))
	p, err := Launch(name, Binary(t, name), logPath, append([]string{"--kubeconfig", s.Kubeconfig}, args...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		p.Stop()
		if t.Failed() {
			t.Logf("%s log (%s), last lines:\n%s", name, p.LogPath, Tail(p.LogPath, 40))
		}
	})
	return p
}

// Launch starts bin with args, its output appended to logPath (so the
// runs of a restarted daemon share one log). The process is killed if the
// test binary dies first.
func Launch(name, bin, logPath string, args []string) (*Process, error) {
	p := &Process{Name: name, LogPath: logPath, exited: make(chan struct{})}
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	p.cmd = exec.Command(bin, args...)
	p.cmd.Stdout, p.cmd.Stderr = logFile, logFile
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := p.cmd.Start(); err != nil {
		logFile.Close()
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	go func() {
		_ = p.cmd.Wait()
		logFile.Close()
		close(p.exited)
	}()
	return p, nil
}

// Stop sends SIGTERM and waits up to StopTimeout, then kills.
func (p *Process) Stop() {
	select {
	case <-p.exited:
		return
	default:
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.exited:
	case <-time.After(StopTimeout):
		_ = p.cmd.Process.Kill()
		<-p.exited
	}
}

// Kill sends SIGKILL and waits for the exit.
func (p *Process) Kill() {
	_ = p.cmd.Process.Kill()
	<-p.exited
}

// Terminate sends SIGTERM and waits up to within for the exit; it returns
// the exit code, or an error (after a SIGKILL) when the process took
// longer.
func (p *Process) Terminate(within time.Duration) (int, error) {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.exited:
		return p.cmd.ProcessState.ExitCode(), nil
	case <-time.After(within):
		p.Kill()
		return -1, fmt.Errorf("%s did not exit within %v of SIGTERM; killed", p.Name, within)
	}
}

// Exited is closed when the process has exited.
func (p *Process) Exited() <-chan struct{} { return p.exited }

// ExitCode is the exit code once Exited is closed.
func (p *Process) ExitCode() int { return p.cmd.ProcessState.ExitCode() }

// Pid is the process's ID.
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Tail returns the last n lines of the file at path.
func Tail(path string, n int) string {
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
