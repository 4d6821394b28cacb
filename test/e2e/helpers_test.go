package e2e

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

const (
	// kubectlTimeout bounds every kubectl run.
	kubectlTimeout = 60 * time.Second
	// readyTimeout bounds the wait for /readyz after the process starts.
	readyTimeout = 30 * time.Second
	// stopTimeout is how long a SIGTERM may take before the process is killed.
	stopTimeout = 10 * time.Second
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

	// id is the client CA the server trusts and the admin's certificate.
	id      *clientIdentity
	dir     string
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

// apiserverBinary returns the path of the built binary, failing t with
// instructions if PLATFORM_BIN_DIR is unset or the binary is missing.
func apiserverBinary(t testing.TB) string {
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

// kubectlBinary returns $KUBECTL, or kubectl from PATH, or /usr/bin/kubectl.
func kubectlBinary(t testing.TB) string {
	t.Helper()
	if k := os.Getenv("KUBECTL"); k != "" {
		return k
	}
	if k, err := exec.LookPath("kubectl"); err == nil {
		return k
	}
	if _, err := os.Stat("/usr/bin/kubectl"); err == nil {
		return "/usr/bin/kubectl"
	}
	t.Fatal("kubectl not found: install it in PATH or set KUBECTL")
	return ""
}

// freePort returns a loopback TCP port that was free a moment ago.
func freePort(t testing.TB) int {
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
}

// StartServerWith is StartServer with the config's address, etcd and flags.
func StartServerWith(t *testing.T, c ServerConfig) *Server {
	t.Helper()
	bin := apiserverBinary(t)
	kubectlBinary(t)
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
		port = freePort(t)
	}
	s := &Server{
		URL:        "https://" + net.JoinHostPort(ip, strconv.Itoa(port)),
		CertDir:    filepath.Join(dir, "certs"),
		Kubeconfig: filepath.Join(dir, "kubeconfig"),
		LogPath:    filepath.Join(dir, "apiserver.log"),
		dir:        dir,
		exited:     make(chan struct{}),
		id:         newClientIdentity(t, filepath.Join(dir, "client-ca")),
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
		"--client-ca-file", s.id.CAFile,
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
			t.Logf("platform-apiserver log (%s), last lines:\n%s", s.LogPath, s.logTail(40))
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
			log := s.logTail(30)
			if strings.Contains(log, "address already in use") {
				return fmt.Errorf("%w: %s", errPortInUse, s.URL)
			}
			return fmt.Errorf("platform-apiserver exited before it was ready (%v); log:\n%s", s.waitErr, log)
		default:
		}
		client, err := s.httpClient()
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
	return fmt.Errorf("platform-apiserver at %s not ready within %v (last: %s); log:\n%s", s.URL, readyTimeout, last, s.logTail(30))
}

// httpClient returns a client that trusts <cert-dir>/apiserver.crt and
// presents the admin's certificate.
func (s *Server) httpClient() (*http.Client, error) {
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
		Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, Certificates: []tls.Certificate{s.id.certificate()}}},
	}, nil
}

// writeKubeconfig writes the admin kubeconfig.
func (s *Server) writeKubeconfig() error {
	pem, err := os.ReadFile(filepath.Join(s.CertDir, "apiserver.crt"))
	if err != nil {
		return err
	}
	return writeKubeconfig(s.Kubeconfig, s.URL, pem, s.id)
}

// writeKubeconfig writes an admin kubeconfig for the server at url whose
// certificate caPEM signs; the user is id's admin certificate.
func writeKubeconfig(path, url string, caPEM []byte, id *clientIdentity) error {
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

// Stop sends SIGTERM and waits up to stopTimeout for the process to exit,
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
			case <-time.After(stopTimeout):
				s.cmd.Process.Kill()
				<-s.exited
				s.stopErr = fmt.Errorf("did not exit within %v of SIGTERM; killed", stopTimeout)
			}
		}
		s.code = s.cmd.ProcessState.ExitCode()
	})
	return s.code, s.stopErr
}

// logTail returns the last n lines of the server log, leaving out the
// embedded etcd's per-request statistics.
func (s *Server) logTail(n int) string {
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

// Kubectl runs kubectl against the server with a timeout of kubectlTimeout
// and returns its exit code and output; only a failure to run it or a
// timeout fails t.
func (s *Server) Kubectl(t testing.TB, args ...string) Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), kubectlTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, kubectlBinary(t), args...)
	cmd.Env = s.kubectlEnv()
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := Result{Args: args, Stdout: stdout.String(), Stderr: stderr.String()}
	if ctx.Err() != nil {
		t.Fatalf("timed out after %v:\n%s", kubectlTimeout, r)
	}
	var exitErr *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exitErr):
		r.Code = exitErr.ExitCode()
	default:
		t.Fatalf("run kubectl %s: %v", strings.Join(args, " "), err)
	}
	return r
}

// kubectlEnv is the environment without the caller's KUBE* variables and
// with a private HOME and cache directory, so cached discovery of another
// server that once had the same port is never used.
func (s *Server) kubectlEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "KUBE") || strings.HasPrefix(kv, "HOME=") {
			continue
		}
		env = append(env, kv)
	}
	home := filepath.Join(s.dir, "home")
	return append(env,
		"HOME="+home,
		"KUBECONFIG="+s.Kubeconfig,
		"KUBECACHEDIR="+filepath.Join(home, ".kube", "cache"),
	)
}

// MustKubectl runs kubectl, fails t unless it exits 0, and returns stdout.
func (s *Server) MustKubectl(t testing.TB, args ...string) string {
	t.Helper()
	r := s.Kubectl(t, args...)
	if r.Code != 0 {
		t.Fatalf("want exit code 0:\n%s", r)
	}
	return r.Stdout
}

// KubectlFails runs kubectl, fails t if it exits 0, and returns the result.
func (s *Server) KubectlFails(t testing.TB, args ...string) Result {
	t.Helper()
	r := s.Kubectl(t, args...)
	if r.Code == 0 {
		t.Fatalf("want a non-zero exit code:\n%s", r)
	}
	return r
}

// GetJSON runs kubectl with the args and -o json and decodes the output.
func (s *Server) GetJSON(t testing.TB, args ...string) map[string]any {
	t.Helper()
	out := s.MustKubectl(t, append(args, "-o", "json")...)
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("decode the JSON of kubectl %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return m
}

// Expect runs kubectl, fails t unless it exits 0 and stdout is want (after
// trimming surrounding white space).
func (s *Server) Expect(t testing.TB, want string, args ...string) {
	t.Helper()
	r := s.Kubectl(t, args...)
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != want {
		t.Fatalf("want exit code 0 and stdout %q:\n%s", want, r)
	}
}

var manifestSerial atomic.Int64

// WriteManifest writes a manifest to a new temporary file and returns its path.
func WriteManifest(t testing.TB, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), fmt.Sprintf("manifest-%d.yaml", manifestSerial.Add(1)))
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// WriteJSON writes v as JSON to a new temporary file and returns its path.
func WriteJSON(t testing.TB, v any) string {
	t.Helper()
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return WriteManifest(t, string(data))
}

// CreateOrFallback runs an imperative kubectl command that creates an
// object, expecting it to print want. If it fails, the failure is reported
// and the same object is created from the manifest instead, so that the
// rest of the test still runs.
func (s *Server) CreateOrFallback(t testing.TB, want, manifest string, args ...string) {
	t.Helper()
	r := s.Kubectl(t, args...)
	if r.Code == 0 && strings.TrimSpace(r.Stdout) == want {
		return
	}
	t.Errorf("want exit code 0 and stdout %q:\n%s", want, r)
	if r.Code != 0 {
		s.MustKubectl(t, "create", "-f", WriteManifest(t, manifest))
	}
}

// lookup walks obj (decoded JSON) along keys: strings index objects, ints
// index arrays.
func lookup(obj any, keys ...any) (any, bool) {
	cur := obj
	for _, k := range keys {
		switch k := k.(type) {
		case string:
			m, ok := cur.(map[string]any)
			if !ok {
				return nil, false
			}
			if cur, ok = m[k]; !ok {
				return nil, false
			}
		case int:
			a, ok := cur.([]any)
			if !ok || k < 0 || k >= len(a) {
				return nil, false
			}
			cur = a[k]
		default:
			panic(fmt.Sprintf("lookup: key %v is not a string or int", k))
		}
	}
	return cur, true
}

func pathString(keys []any) string {
	var b strings.Builder
	for _, k := range keys {
		if i, ok := k.(int); ok {
			fmt.Fprintf(&b, "[%d]", i)
		} else {
			fmt.Fprintf(&b, ".%s", k)
		}
	}
	return b.String()
}

func compact(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	return string(data)
}

// WantField fails t unless the field at keys is present in obj and equal,
// as JSON, to want.
func WantField(t testing.TB, obj any, want any, keys ...any) {
	t.Helper()
	got, ok := lookup(obj, keys...)
	if !ok {
		t.Errorf("%s: missing, want %s", pathString(keys), compact(want))
		return
	}
	if compact(got) != compact(want) {
		t.Errorf("%s = %s, want %s", pathString(keys), compact(got), compact(want))
	}
}

// WantNoField fails t if the field at keys is present in obj.
func WantNoField(t testing.TB, obj any, keys ...any) {
	t.Helper()
	if got, ok := lookup(obj, keys...); ok {
		t.Errorf("%s = %s, want it absent", pathString(keys), compact(got))
	}
}

// Field returns the field at keys, failing t if it is missing.
func Field(t testing.TB, obj any, keys ...any) any {
	t.Helper()
	got, ok := lookup(obj, keys...)
	if !ok {
		t.Fatalf("%s: missing in %s", pathString(keys), compact(obj))
	}
	return got
}

// ItemNames returns metadata.name of each item of a decoded list.
func ItemNames(t testing.TB, list map[string]any) []string {
	t.Helper()
	items, ok := list["items"].([]any)
	if !ok {
		if _, present := list["items"]; !present || list["items"] == nil {
			return nil
		}
		t.Fatalf("items is not an array: %s", compact(list))
	}
	var names []string
	for i := range items {
		names = append(names, Field(t, items, i, "metadata", "name").(string))
	}
	return names
}

// WantContains fails t unless out contains every substring.
func WantContains(t testing.TB, out string, subs ...string) {
	t.Helper()
	for _, s := range subs {
		if !strings.Contains(out, s) {
			t.Errorf("output does not contain %q:\n%s", s, out)
		}
	}
}

// WantMatch fails t unless out matches every regular expression (in
// multi-line mode).
func WantMatch(t testing.TB, out string, exprs ...string) {
	t.Helper()
	for _, e := range exprs {
		if !regexp.MustCompile("(?m)" + e).MatchString(out) {
			t.Errorf("output does not match %q:\n%s", e, out)
		}
	}
}

// TableRow returns the fields of the first line of a kubectl table whose
// first field is name, failing t if there is none.
func TableRow(t testing.TB, out, name string) []string {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		if len(f) > 0 && f[0] == name {
			return f
		}
	}
	t.Fatalf("no row %q in:\n%s", name, out)
	return nil
}

// WantHeader fails t unless the first line of out starts with the columns.
func WantHeader(t testing.TB, out string, columns ...string) {
	t.Helper()
	first, _, _ := strings.Cut(out, "\n")
	if !strings.HasPrefix(strings.Join(strings.Fields(first), " "), strings.Join(columns, " ")) {
		t.Errorf("header %q does not start with %q", first, strings.Join(columns, " "))
	}
}

// RequireObject stops the test unless the object exists, so that the
// subtests that depend on it do not each fail with NotFound.
func (s *Server) RequireObject(t *testing.T, resource, name string) {
	t.Helper()
	if r := s.Kubectl(t, "get", resource, name, "-o", "name"); r.Code != 0 {
		t.Fatalf("%s %s was not created; the remaining subtests depend on it:\n%s", resource, name, r)
	}
}
