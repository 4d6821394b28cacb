package framework

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// KubectlBinary returns $KUBECTL, or kubectl from PATH, or
// /usr/bin/kubectl, failing t if there is none.
func KubectlBinary(t testing.TB) string {
	t.Helper()
	k, err := kubectlPath()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func kubectlPath() (string, error) {
	if k := os.Getenv("KUBECTL"); k != "" {
		return k, nil
	}
	if k, err := exec.LookPath("kubectl"); err == nil {
		return k, nil
	}
	if _, err := os.Stat("/usr/bin/kubectl"); err == nil {
		return "/usr/bin/kubectl", nil
	}
	return "", errors.New("kubectl not found: install it in PATH or set KUBECTL")
}

// Result is one kubectl run.
type Result struct {
	Args   []string
	Code   int
	Stdout string
	Stderr string
}

func (r Result) String() string {
	return fmt.Sprintf("kubectl %s\nexit code: %d\nstdout:\n%s\nstderr:\n%s", strings.Join(r.Args, " "), r.Code, r.Stdout, r.Stderr)
}

// Kubectl runs kubectl against the server with a timeout of KubectlTimeout
// and returns its exit code and output; only a failure to run it or a
// timeout fails t.
func (s *Server) Kubectl(t testing.TB, args ...string) Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), KubectlTimeout)
	defer cancel()
	r, err := s.RunKubectl(ctx, args...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// RunKubectl runs kubectl against the server until ctx ends and returns
// its exit code and output; the error says it could not run or timed out.
// It is Kubectl for goroutines other than the test's.
func (s *Server) RunKubectl(ctx context.Context, args ...string) (Result, error) {
	bin, err := kubectlPath()
	if err != nil {
		return Result{Args: args}, err
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = s.KubectlEnv()
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	r := Result{Args: args, Stdout: stdout.String(), Stderr: stderr.String()}
	if ctx.Err() != nil {
		return r, fmt.Errorf("timed out: %w:\n%s", ctx.Err(), r)
	}
	var exitErr *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exitErr):
		r.Code = exitErr.ExitCode()
	default:
		return r, fmt.Errorf("run kubectl %s: %w", strings.Join(args, " "), err)
	}
	return r, nil
}

// KubectlEnv is the environment without the caller's KUBE* variables and
// with a private HOME and cache directory, so cached discovery of another
// server that once had the same port is never used.
func (s *Server) KubectlEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "KUBE") || strings.HasPrefix(kv, "HOME=") {
			continue
		}
		env = append(env, kv)
	}
	home := filepath.Join(s.Dir, "home")
	return append(env,
		"HOME="+home,
		"KUBECONFIG="+s.Kubeconfig,
		"KUBECACHEDIR="+filepath.Join(home, ".kube", "cache"),
	)
}
