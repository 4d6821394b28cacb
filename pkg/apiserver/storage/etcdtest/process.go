package etcdtest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"syscall"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
)

// External is an etcd process started from the etcd binary on PATH.
type External struct {
	cmd *exec.Cmd
	dir string
	// ClientURL is where it serves clients.
	ClientURL string
}

// StartExternal runs `etcd` on free loopback ports in a temporary directory,
// with more flags if given, and waits until it answers. The caller must
// Stop it.
func StartExternal(flags ...string) (*External, error) {
	bin, err := exec.LookPath("etcd")
	if err != nil {
		return nil, fmt.Errorf("etcd binary not found on PATH (install Debian's etcd-server): %w", err)
	}
	dir, err := tempDir("etcd-external")
	if err != nil {
		return nil, err
	}
	clientPort, peerPort := freePort(), freePort()
	e := &External{dir: dir, ClientURL: fmt.Sprintf("http://127.0.0.1:%d", clientPort)}
	peer := fmt.Sprintf("http://127.0.0.1:%d", peerPort)
	args := []string{"--data-dir", dir, "--name", "test",
		"--listen-client-urls", e.ClientURL, "--advertise-client-urls", e.ClientURL,
		"--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
		"--initial-cluster", "test=" + peer}
	e.cmd = exec.Command(bin, append(args, flags...)...)
	// The process dies with the test binary, which has no hook to stop it.
	e.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := e.cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("start etcd: %w", err)
	}
	if err := waitReady(e.ClientURL); err != nil {
		e.Stop()
		return nil, err
	}
	return e, nil
}

// Stop kills the process and removes its data.
func (e *External) Stop() {
	e.cmd.Process.Kill()
	e.cmd.Wait()
	os.RemoveAll(e.dir)
}

func startProcess() ([]string, error) {
	e, err := StartExternal()
	if err != nil {
		return nil, err
	}
	return []string{e.ClientURL}, nil
}

func waitReady(url string) error {
	c, err := clientv3.New(clientv3.Config{Endpoints: []string{url}, DialTimeout: 2 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		return err
	}
	defer c.Close()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		_, err := c.Get(ctx, "ready")
		cancel()
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("etcd at %s not ready after 30s: %w", url, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// freePort returns a loopback port that was free a moment ago.
func freePort() int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// Pid is the etcd process's ID, for tests that watch its resources.
func (e *External) Pid() int { return e.cmd.Process.Pid }
