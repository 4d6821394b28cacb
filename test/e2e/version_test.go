package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// placeholderVersion is what a binary reports when nothing stamped it.
const placeholderVersion = "v1.32.0-platform.dev"

// daemonBinaries are the binaries with --version, as make build names them.
var daemonBinaries = []string{"platform-apiserver", "platform-scheduler", "platform-controller-manager", "platform-cloud-controller-manager"}

// rawVersion runs bin --version=raw and returns its fields by name.
func rawVersion(t *testing.T, bin string) map[string]string {
	t.Helper()
	out, err := exec.Command(bin, "--version=raw").CombinedOutput()
	if err != nil {
		t.Fatalf("%s --version=raw: %v\n%s", bin, err, out)
	}
	fields := map[string]string{}
	for _, m := range regexp.MustCompile(`(\w+):"([^"]*)"`).FindAllStringSubmatch(string(out), -1) {
		fields[m[1]] = m[2]
	}
	if fields["GitVersion"] == "" {
		t.Fatalf("%s --version=raw printed no GitVersion: %s", bin, out)
	}
	return fields
}

// TestStampedVersion builds the API server with the version set at link
// time and checks that --version, the start log and /version report it.
func TestStampedVersion(t *testing.T) {
	t.Parallel()
	apiserverBinary(t)
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(os.Getenv("GOROOT"), "bin", "go")
	}
	want := map[string]string{
		"gitVersion":   fmt.Sprintf("v1.32.0-platform.e2e%d", time.Now().UnixNano()),
		"gitCommit":    "0123456789abcdef0123456789abcdef01234567",
		"gitTreeState": "dirty",
		"buildDate":    "2026-01-02T03:04:05Z",
	}
	var ldflags []string
	for k, v := range want {
		ldflags = append(ldflags, fmt.Sprintf("-X platform.io/platform/pkg/component/version.%s=%s", k, v))
	}
	bin := filepath.Join(t.TempDir(), "platform-apiserver")
	build := exec.Command(goBin, "build", "-ldflags", strings.Join(ldflags, " "), "-o", bin, "platform.io/platform/cmd/apiserver")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	out, err := exec.Command(bin, "--version").CombinedOutput()
	if got, wantOut := string(out), "platform-apiserver "+want["gitVersion"]+"\n"; err != nil || got != wantOut {
		t.Fatalf("--version = %q (%v), want %q", got, err, wantOut)
	}
	raw := rawVersion(t, bin)
	for k, v := range want {
		if f := strings.ToUpper(k[:1]) + k[1:]; raw[f] != v {
			t.Errorf("--version=raw %s = %q, want %q", f, raw[f], v)
		}
	}

	s := StartServerWith(t, ServerConfig{Bin: bin})
	var got map[string]string
	if err := json.Unmarshal([]byte(s.MustKubectl(t, "get", "--raw", "/version")), &got); err != nil {
		t.Fatalf("decode /version: %v", err)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("/version %s = %q, want %q", k, got[k], v)
		}
	}
	if log := s.logTail(1000); !strings.Contains(log, want["gitVersion"]) {
		t.Errorf("the start log does not carry the version %s", want["gitVersion"])
	}
}

// TestBuildStampsEveryBinary: make build gives every daemon the same,
// stamped version, which the API server's /version and each daemon's
// start log also report.
func TestBuildStampsEveryBinary(t *testing.T) {
	t.Parallel()
	dir := filepath.Dir(apiserverBinary(t))
	ref := rawVersion(t, filepath.Join(dir, "platform-apiserver"))
	if ref["GitVersion"] == placeholderVersion || ref["GitCommit"] == "" || ref["GitTreeState"] == "" {
		t.Fatalf("platform-apiserver is not stamped by the build: %v", ref)
	}
	found := 0
	for _, name := range daemonBinaries {
		bin := filepath.Join(dir, name)
		if _, err := os.Stat(bin); err != nil {
			t.Logf("%s is not built; skipped", name)
			continue
		}
		found++
		got := rawVersion(t, bin)
		for _, f := range []string{"GitVersion", "GitCommit", "GitTreeState", "BuildDate"} {
			if got[f] != ref[f] {
				t.Errorf("%s --version %s = %q, platform-apiserver's is %q", name, f, got[f], ref[f])
			}
		}
	}
	if found < 3 {
		t.Fatalf("only %d of the daemons are built in %s", found, dir)
	}

	s := StartServer(t)
	var v map[string]string
	if err := json.Unmarshal([]byte(s.MustKubectl(t, "get", "--raw", "/version")), &v); err != nil {
		t.Fatalf("decode /version: %v", err)
	}
	if v["gitVersion"] != ref["GitVersion"] {
		t.Errorf("/version gitVersion = %q, --version says %q", v["gitVersion"], ref["GitVersion"])
	}
	p := s.StartProcess(t, "platform-scheduler", "--secure-port=0", "--port=0", "--leader-elect=false")
	Eventually(t, 30*time.Second, "the scheduler's start log names the version", func() string {
		if log := tail(p.LogPath, 200); !strings.Contains(log, ref["GitVersion"]) {
			return "not yet:\n" + log
		}
		return ""
	})
}
