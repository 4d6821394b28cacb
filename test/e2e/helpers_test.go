package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"platform.io/platform/test/e2e/framework"
)

// The launcher (the API server, daemons and kubectl as processes) lives in
// package framework so that other suites (test/soak) can import it; these
// names keep the suite's own spelling of it.
const stopTimeout = framework.StopTimeout

// Server is a platform-apiserver process started by a test.
type Server struct{ *framework.Server }

// ServerConfig changes how StartServerWith runs the API server.
type ServerConfig = framework.ServerConfig

// Result is one kubectl run.
type Result = framework.Result

// clientIdentity is the client CA of a test's API server and its admin.
type clientIdentity = framework.Identity

// StartServer runs the built platform-apiserver (framework.StartServer).
func StartServer(t *testing.T) *Server { return &Server{framework.StartServer(t)} }

// StartServerWith is StartServer with the config's address, etcd and flags.
func StartServerWith(t *testing.T, c ServerConfig) *Server {
	return &Server{framework.StartServerWith(t, c)}
}

func apiserverBinary(t testing.TB) string { t.Helper(); return framework.APIServerBinary(t) }
func kubectlBinary(t testing.TB) string   { t.Helper(); return framework.KubectlBinary(t) }
func freePort(t testing.TB) int           { t.Helper(); return framework.FreePort(t) }

func newClientIdentity(t testing.TB, dir string) *clientIdentity {
	t.Helper()
	return framework.NewIdentity(t, dir)
}

func writeKubeconfig(path, url string, caPEM []byte, id *clientIdentity) error {
	return framework.WriteKubeconfig(path, url, caPEM, id)
}

func (s *Server) httpClient() (*http.Client, error) { return s.HTTPClient() }
func (s *Server) logTail(n int) string              { return s.LogTail(n) }
func (s *Server) kubectlEnv() []string              { return s.KubectlEnv() }

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
