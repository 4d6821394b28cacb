package framework

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

const (
	// KubectlTimeout bounds every kubectl run.
	KubectlTimeout = 60 * time.Second
	// readyTimeout bounds the wait for /readyz after the process starts.
	readyTimeout = 30 * time.Second
	// StopTimeout is how long a SIGTERM may take before the process is killed.
	StopTimeout = 10 * time.Second
)

// Server is a platform-apiserver process started by a test.
type Server struct {
	// URL is the HTTPS base URL, e.g. https://127.0.0.1:41234.
	URL string
	// CertDir holds the server's self-signed apiserver.crt.
	CertDir string
	// Kubeconfig is the path of the admin kubeconfig for this server.
	Kubeconfig string
	// LogPath is the file the process's stdout and stderr go to.
	LogPath string
	// ID is the client CA the server trusts and the admin's certificate.
	ID *Identity
	// Dir is the server's temporary directory; daemons started with
	// StartProcess log there.
	Dir string

	cmd     *exec.Cmd
	exited  chan struct{}
	waitErr error
	ready   bool
	killed  bool
	stop    sync.Once
	code    int
	stopErr error
}

var errPortInUse = errors.New("secure port already in use")

// APIServerBinary returns the path of the built binary, failing t with
// instructions if PLATFORM_BIN_DIR is unset or the binary is missing.
func APIServerBinary(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("PLATFORM_BIN_DIR")
	if dir == "" {
		t.Fatal("PLATFORM_BIN_DIR is not set: the e2e suite runs the built binaries; " +
			"use `make test-e2e`, or `make build` then PLATFORM_BIN_DIR=$PWD/_output/bin go test ./test/e2e/")
	}
	bin := filepath.Join(dir, "platform-apiserver")
	fi, err := os.Stat(bin)
	if err != nil {
		t.Fatalf("PLATFORM_BIN_DIR=%s has no platform-apiserver binary (run `make build`): %v", dir, err)
	}
	if fi.IsDir() || fi.Mode()&0o111 == 0 {
		t.Fatalf("%s is not an executable file", bin)
	}
	return bin
}

// FreePort returns a loopback TCP port that was free a moment ago.
func FreePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("find a free port: %v", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// StartServer runs the built platform-apiserver on a free loopback port,
// with an embedded etcd and certificates in temporary directories, waits
// for /readyz, and writes a kubeconfig for it. The process is stopped when
// the test ends; if the test failed, the tail of its log is shown.
func StartServer(t *testing.T) *Server {
	t.Helper()
	return StartServerWith(t, ServerConfig{})
}

// ServerConfig changes how StartServerWith runs the API server.
type ServerConfig struct {
	// IP is the bind address; empty means 127.0.0.1.
	IP string
	// Port is the secure port; 0 picks a free one (and another one when
	// it is taken meanwhile).
	Port int
	// EtcdServers replaces the embedded etcd.
	EtcdServers string
	// Args are more flags.
	Args []string
	// ServiceAccountAdmission keeps the ServiceAccount admission plugin
	// on. The suite turns it off otherwise, as upstream's test frameworks
	// do: without a controller manager no namespace gets its default
	// service account, and the plugin would refuse every pod.
	ServiceAccountAdmission bool
	// Bin replaces the platform-apiserver of PLATFORM_BIN_DIR.
	Bin string
}

// StartServerWith is StartServer with the config's address, etcd and flags.
func StartServerWith(t *testing.T, c ServerConfig) *Server {
	t.Helper()
	bin := c.Bin
	if bin == "" {
		bin = APIServerBinary(t)
	}
	KubectlBinary(t)
	for attempt := 1; ; attempt++ {
		s, err := tryStart(t, bin, c)
		if err == nil {
			return s
		}
		if errors.Is(err, errPortInUse) && attempt < 3 && c.Port == 0 {
			t.Logf("attempt %d: %v; retrying on another port", attempt, err)
			continue
		}
		t.Fatal(err)
	}
}

func tryStart(t *testing.T, bin string, c ServerConfig) (*Server, error) {
	t.Helper()
	dir := t.TempDir()
	ip, port := c.IP, c.Port
	if ip == "" {
		ip = "127.0.0.1"
	}
	if port == 0 {
		port = FreePort(t)
	}
	s := &Server{
		URL:        "https://" + net.JoinHostPort(ip, strconv.Itoa(port)),
		CertDir:    filepath.Join(dir, "certs"),
		Kubeconfig: filepath.Join(dir, "kubeconfig"),
		LogPath:    filepath.Join(dir, "apiserver.log"),
		Dir:        dir,
		exited:     make(chan struct{}),
		ID:         NewIdentity(t, filepath.Join(dir, "client-ca")),
	}
	logFile, err := os.Create(s.LogPath)
	if err != nil {
		return nil, err
	}
	args := []string{
		"--secure-port", strconv.Itoa(port),
		"--bind-address", ip,
		"--data-dir", filepath.Join(dir, "etcd"),
		"--cert-dir", s.CertDir,
		"--client-ca-file", s.ID.CAFile,
	}
	if c.EtcdServers != "" {
		args = append(args, "--etcd-servers", c.EtcdServers)
	}
	if !c.ServiceAccountAdmission {
		args = append(args, "--disable-admission-plugins=ServiceAccount")
	}
	s.cmd = exec.Command(bin, append(args, c.Args...)...)
	s.cmd.Stdout, s.cmd.Stderr = logFile, logFile
	if err := s.cmd.Start(); err != nil {
		logFile.Close()
		return nil, fmt.Errorf("start %s: %v", bin, err)
	}
	go func() {
		s.waitErr = s.cmd.Wait()
		logFile.Close()
		close(s.exited)
	}()
	t.Cleanup(func() {
		code, err := s.Stop()
		switch {
		case !s.ready:
			// The start failed and was reported already.
		case s.killed:
			// The test killed it.
		case err != nil:
			t.Errorf("stop platform-apiserver: %v", err)
		case code != 0:
			t.Errorf("platform-apiserver exited with code %d after SIGTERM", code)
		}
		if t.Failed() {
			t.Logf("platform-apiserver log (%s), last lines:\n%s", s.LogPath, s.LogTail(40))
		}
	})
	if err := s.waitReady(); err != nil {
		return nil, err
	}
	if err := s.writeKubeconfig(); err != nil {
		return nil, err
	}
	s.ready = true
	return s, nil
}

// waitReady polls /readyz, trusting the server's own certificate, until
// it answers 200 "ok" or the process exits or readyTimeout passes.
func (s *Server) waitReady() error {
	deadline := time.Now().Add(readyTimeout)
	var last string
	for time.Now().Before(deadline) {
		select {
		case <-s.exited:
			log := s.LogTail(30)
			if strings.Contains(log, "address already in use") {
				return fmt.Errorf("%w: %s", errPortInUse, s.URL)
			}
			return fmt.Errorf("platform-apiserver exited before it was ready (%v); log:\n%s", s.waitErr, log)
		default:
		}
		client, err := s.HTTPClient()
		if err != nil {
			last = err.Error()
		} else {
			resp, err := client.Get(s.URL + "/readyz")
			if err != nil {
				last = err.Error()
			} else {
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode == http.StatusOK && string(body) == "ok" {
					return nil
				}
				last = fmt.Sprintf("HTTP %d: %s", resp.StatusCode, body)
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("platform-apiserver at %s not ready within %v (last: %s); log:\n%s", s.URL, readyTimeout, last, s.LogTail(30))
}

// HTTPClient returns a client that trusts <cert-dir>/apiserver.crt and
// presents the admin's certificate.
func (s *Server) HTTPClient() (*http.Client, error) {
	pem, err := os.ReadFile(filepath.Join(s.CertDir, "apiserver.crt"))
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("no certificate in %s/apiserver.crt", s.CertDir)
	}
	return &http.Client{
		Timeout:   5 * time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, Certificates: []tls.Certificate{s.ID.Certificate()}}},
	}, nil
}

// writeKubeconfig writes the admin kubeconfig.
func (s *Server) writeKubeconfig() error {
	pem, err := os.ReadFile(filepath.Join(s.CertDir, "apiserver.crt"))
	if err != nil {
		return err
	}
	return WriteKubeconfig(s.Kubeconfig, s.URL, pem, s.ID)
}

// WriteKubeconfig writes an admin kubeconfig for the server at url whose
// certificate caPEM signs; the user is id's admin certificate.
func WriteKubeconfig(path, url string, caPEM []byte, id *Identity) error {
	kc := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: e2e
  cluster:
    server: %s
    certificate-authority-data: %s
users:
- name: admin
  user:
    client-certificate-data: %s
    client-key-data: %s
contexts:
- name: e2e
  context:
    cluster: e2e
    user: admin
    namespace: default
current-context: e2e
`, url, base64.StdEncoding.EncodeToString(caPEM),
		base64.StdEncoding.EncodeToString(id.Admin.CertPEM), base64.StdEncoding.EncodeToString(id.Admin.KeyPEM))
	return os.WriteFile(path, []byte(kc), 0o600)
}

// Stop sends SIGTERM and waits up to StopTimeout for the process to exit,
// killing it after that. It returns the exit code; later calls return the
// first result.
func (s *Server) Stop() (int, error) {
	s.stop.Do(func() {
		select {
		case <-s.exited:
		default:
			if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
				s.stopErr = fmt.Errorf("send SIGTERM: %v", err)
			}
			select {
			case <-s.exited:
			case <-time.After(StopTimeout):
				s.cmd.Process.Kill()
				<-s.exited
				s.stopErr = fmt.Errorf("did not exit within %v of SIGTERM; killed", StopTimeout)
			}
		}
		s.code = s.cmd.ProcessState.ExitCode()
	})
	return s.code, s.stopErr
}

// Signal sends sig to the process.
func (s *Server) Signal(sig syscall.Signal) error {
	return s.cmd.Process.Signal(sig)
}

// Kill sends SIGKILL and waits for the exit; the end of the test then
// reports no exit code.
func (s *Server) Kill() error {
	s.killed = true
	if err := s.Signal(syscall.SIGKILL); err != nil {
		return err
	}
	<-s.exited
	return nil
}

// Exited is closed when the process has exited.
func (s *Server) Exited() <-chan struct{} { return s.exited }

// ExitCode is the exit code of the process once Exited is closed.
func (s *Server) ExitCode() int { return s.cmd.ProcessState.ExitCode() }

// Pid is the process's ID.
func (s *Server) Pid() int { return s.cmd.Process.Pid }

// LogTail returns the last n lines of the server log, leaving out the
// embedded etcd's per-request statistics.
func (s *Server) LogTail(n int) string {
	data, err := os.ReadFile(s.LogPath)
	if err != nil {
		return fmt.Sprintf("(read log: %v)", err)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		if !strings.Contains(l, "request stats") {
			lines = append(lines, l)
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
