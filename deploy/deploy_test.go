// Package deploy holds the systemd units and static pod manifests that
// operators install (docs/operations.md). Its test keeps them in step with
// the binaries: every command line is parsed by the daemon's own flag set.
package deploy

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/hack/flagdocs/daemons"
	"platform.io/platform/pkg/apiserver/audit/policy"
	"platform.io/platform/pkg/apiserver/registry/core/podspec"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// etcdBinary is the etcd the units run (Debian's etcd-server).
const etcdBinary = "/usr/bin/etcd"

// component is one thing deployed: a daemon or the etcd member.
type component struct {
	// name is the env file's and kubeconfig's name: apiserver, etcd, ...
	name string
	// unit and manifest are the file names in systemd/ and manifests/.
	unit, manifest string
	// binary is the program name: platform-apiserver, etcd.
	binary string
	// securePort is the HTTPS port the probes use; 0 for etcd.
	securePort int
}

var components = []component{
	{"etcd", "platform-etcd.service", "etcd.yaml", "etcd", 0},
	{"apiserver", "platform-apiserver.service", "platform-apiserver.yaml", "platform-apiserver", 6443},
	{"scheduler", "platform-scheduler.service", "platform-scheduler.yaml", "platform-scheduler", 10259},
	{"controller-manager", "platform-controller-manager.service", "platform-controller-manager.yaml", "platform-controller-manager", 10257},
	{"cloud-controller-manager", "platform-cloud-controller-manager.service", "platform-cloud-controller-manager.yaml", "platform-cloud-controller-manager", 10258},
}

// TestEveryFileIsKnown: deploy/systemd and deploy/manifests hold exactly
// the components above, so a new file is tested too.
func TestEveryFileIsKnown(t *testing.T) {
	var wantUnits, wantEnv, wantManifests []string
	for _, c := range components {
		wantUnits = append(wantUnits, c.unit)
		wantEnv = append(wantEnv, c.name+".env")
		wantManifests = append(wantManifests, c.manifest)
	}
	for _, tc := range []struct {
		pattern string
		want    []string
	}{
		{"systemd/*.service", wantUnits}, {"systemd/*.env", wantEnv}, {"manifests/*", wantManifests},
	} {
		got, err := filepath.Glob(tc.pattern)
		if err != nil {
			t.Fatal(err)
		}
		for i := range got {
			got[i] = filepath.Base(got[i])
		}
		want := slices.Clone(tc.want)
		slices.Sort(want)
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.pattern, d)
		}
	}
}

// TestUnits: each unit has what an operator needs and its command line
// is accepted by the binary it runs.
func TestUnits(t *testing.T) {
	for _, c := range components {
		t.Run(c.unit, func(t *testing.T) {
			u := readUnit(t, filepath.Join("systemd", c.unit))
			for key, want := range map[string]string{
				"Service.Restart":         "always",
				"Service.EnvironmentFile": "/etc/platform/" + c.name + ".env",
			} {
				if got := u[key]; got != want {
					t.Errorf("%s = %q, want %q", key, got, want)
				}
			}
			if n, err := strconv.Atoi(u["Service.LimitNOFILE"]); err != nil || n < 65536 {
				t.Errorf("LimitNOFILE = %q, want at least 65536", u["Service.LimitNOFILE"])
			}
			if s, err := strconv.Atoi(u["Service.TimeoutStopSec"]); err != nil || s < 30 || s > 120 {
				t.Errorf("TimeoutStopSec = %q, want 30 to 120 seconds for a graceful stop", u["Service.TimeoutStopSec"])
			}
			after := strings.Fields(u["Unit.After"])
			if !slices.Contains(after, "network-online.target") || !strings.Contains(u["Unit.Wants"], "network-online.target") {
				t.Errorf("After=%q Wants=%q: want network-online.target in both", u["Unit.After"], u["Unit.Wants"])
			}
			if dep := dependency(c); dep != "" && (!slices.Contains(after, dep) || !strings.Contains(u["Unit.Wants"], dep)) {
				t.Errorf("After=%q Wants=%q: want %s in both", u["Unit.After"], u["Unit.Wants"], dep)
			}
			argv := expandAll(t, strings.Fields(u["Service.ExecStart"]), readEnv(t, c.name))
			if filepath.Base(argv[0]) != c.binary {
				t.Fatalf("ExecStart runs %s, want %s", argv[0], c.binary)
			}
			checkFlags(t, c, argv[1:])
		})
	}
}

// TestLeastPrivilege: the API server authorizes with Node,RBAC and limits
// nodes' writes with NodeRestriction, and each
// daemon reaches it with its own kubeconfig (its own client certificate,
// docs/operations.md), never the admin's.
func TestLeastPrivilege(t *testing.T) {
	for _, c := range components {
		if c.name == "etcd" {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			u := readUnit(t, filepath.Join("systemd", c.unit))
			argv := expandAll(t, strings.Fields(u["Service.ExecStart"]), readEnv(t, c.name))
			if c.name == "apiserver" {
				if !slices.Contains(argv, "--authorization-mode=Node,RBAC") {
					t.Errorf("the API server does not run --authorization-mode=Node,RBAC: %q", argv)
				}
				if !slices.Contains(argv, "--enable-admission-plugins=NodeRestriction") {
					t.Errorf("the API server does not run --enable-admission-plugins=NodeRestriction: %q", argv)
				}
				return
			}
			own := "/etc/platform/" + c.name + ".kubeconfig"
			n := 0
			for _, a := range argv {
				name, value, _ := strings.Cut(a, "=")
				if !strings.HasSuffix(name, "kubeconfig") {
					continue
				}
				n++
				if value != own {
					t.Errorf("%s=%s, want the daemon's own %s", name, value, own)
				}
			}
			if n < 2 {
				t.Errorf("want --authentication-kubeconfig and --authorization-kubeconfig (and --kubeconfig) set to %s, found %d", own, n)
			}
		})
	}
}

// dependency is the unit a component's unit must start after.
func dependency(c component) string {
	switch c.name {
	case "etcd":
		return ""
	case "apiserver":
		return "platform-etcd.service"
	}
	return "platform-apiserver.service"
}

// TestManifests: each manifest is a valid Pod in kubeadm's layout whose
// command line is its unit's and is accepted by the binary.
func TestManifests(t *testing.T) {
	for _, c := range components {
		t.Run(c.manifest, func(t *testing.T) {
			pod := readPod(t, filepath.Join("manifests", c.manifest))
			if pod.Kind != "Pod" || pod.APIVersion != "v1" || pod.Namespace != "platform-system" {
				t.Errorf("%s/%s in %q, want v1 Pod in platform-system", pod.APIVersion, pod.Kind, pod.Namespace)
			}
			spec := &pod.Spec
			if !spec.HostNetwork || spec.PriorityClassName != "system-node-critical" {
				t.Errorf("hostNetwork %v, priorityClassName %q: want true and system-node-critical", spec.HostNetwork, spec.PriorityClassName)
			}
			if len(spec.Containers) != 1 {
				t.Fatalf("%d containers, want 1", len(spec.Containers))
			}
			ctr := spec.Containers[0]
			argv := expandAll(t, append(slices.Clone(ctr.Command), ctr.Args...), readEnv(t, c.name))
			if argv[0] != c.binary {
				t.Fatalf("command runs %s, want %s", argv[0], c.binary)
			}
			unit := readUnit(t, filepath.Join("systemd", c.unit))
			if d := cmp.Diff(expandAll(t, strings.Fields(unit["Service.ExecStart"]), readEnv(t, c.name))[1:], argv[1:]); d != "" {
				t.Errorf("flags differ from %s (-unit +manifest):\n%s", c.unit, d)
			}
			checkProbes(t, c, ctr, argv[1:])
			checkMounts(t, spec, ctr, argv[1:])
			for _, r := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
				if _, ok := ctr.Resources.Requests[r]; !ok {
					t.Errorf("no %s request", r)
				}
			}
			podspec.DefaultPodSpec(spec)
			if errs := podspec.ValidatePodSpec(spec, field.NewPath("spec")); len(errs) > 0 {
				t.Errorf("the API server rejects the pod: %v", errs)
			}
			checkFlags(t, c, argv[1:])
		})
	}
}

// checkProbes: liveness and startup on /livez, readiness on /readyz, over
// HTTPS on the secure port the flags set, paths allowed without
// credentials; etcd's on its plain-HTTP metrics listener.
func checkProbes(t *testing.T, c component, ctr corev1.Container, args []string) {
	t.Helper()
	scheme, port := corev1.URISchemeHTTPS, c.securePort
	live, ready := "/livez", "/readyz"
	if c.name == "etcd" {
		scheme, live, ready = corev1.URISchemeHTTP, "/health", "/health"
		u := flagValue(args, "listen-metrics-urls")
		if _, p, ok := strings.Cut(strings.TrimPrefix(u, "http://"), ":"); ok {
			port, _ = strconv.Atoi(p)
		}
	} else if v := flagValue(args, "secure-port"); v != strconv.Itoa(port) {
		t.Errorf("--secure-port=%s, want %d", v, port)
	}
	if c.name != "etcd" && c.name != "apiserver" {
		allowed := strings.Split(flagValue(args, "authorization-always-allow-paths"), ",")
		if !slices.Contains(allowed, live) || !slices.Contains(allowed, ready) {
			t.Errorf("--authorization-always-allow-paths=%v does not let the probes in", allowed)
		}
	}
	for _, p := range []struct {
		name  string
		probe *corev1.Probe
		path  string
	}{{"liveness", ctr.LivenessProbe, live}, {"readiness", ctr.ReadinessProbe, ready}, {"startup", ctr.StartupProbe, live}} {
		if p.probe == nil || p.probe.HTTPGet == nil {
			t.Errorf("no %s probe over HTTP", p.name)
			continue
		}
		g := p.probe.HTTPGet
		if g.Path != p.path || g.Scheme != scheme || g.Port.String() != strconv.Itoa(port) {
			t.Errorf("%s probe %s %s port %s, want %s %s port %d", p.name, g.Scheme, g.Path, g.Port.String(), scheme, p.path, port)
		}
	}
}

// checkMounts: every host path a flag names is under a mount of a host
// path volume.
func checkMounts(t *testing.T, spec *corev1.PodSpec, ctr corev1.Container, args []string) {
	t.Helper()
	hostPaths := map[string]bool{}
	for _, v := range spec.Volumes {
		if v.HostPath == nil {
			t.Errorf("volume %s is not a hostPath", v.Name)
			continue
		}
		hostPaths[v.Name] = true
	}
	var mounts []string
	for _, m := range ctr.VolumeMounts {
		if !hostPaths[m.Name] {
			t.Errorf("mount %s names no hostPath volume", m.Name)
		}
		mounts = append(mounts, m.MountPath)
	}
	for _, a := range args {
		_, value, _ := strings.Cut(a, "=")
		if !strings.HasPrefix(value, "/etc/") && !strings.HasPrefix(value, "/var/") {
			continue
		}
		if !slices.ContainsFunc(mounts, func(m string) bool { return value == m || strings.HasPrefix(value, m+"/") }) {
			t.Errorf("%s: %s is not mounted", a, value)
		}
	}
}

// checkFlags parses args with the binary's own flag set (the daemons'
// commands, compiled in), runs the built binary with them and --version
// when PLATFORM_BIN_DIR names it, and runs etcd likewise.
func checkFlags(t *testing.T, c component, args []string) {
	t.Helper()
	for _, a := range args {
		if !strings.HasPrefix(a, "--") || !strings.Contains(a, "=") {
			t.Errorf("%q: write flags as --name=value", a)
		}
	}
	if c.name == "etcd" {
		if _, err := os.Stat(etcdBinary); err != nil {
			t.Skipf("%s is not installed: the etcd flags are not checked", etcdBinary)
		}
		runVersion(t, etcdBinary, args)
		return
	}
	i := slices.IndexFunc(daemons.All(), func(d daemons.Command) bool { return d.Binary == c.binary })
	if i < 0 {
		if c.name == "cloud-controller-manager" {
			t.Skipf("%s is not written yet (no cmd/cloud-controller-manager/app): its flags are assumed from issue 16", c.binary)
		}
		t.Fatalf("%s is not among the daemons of hack/flagdocs/daemons", c.binary)
	}
	if err := daemons.All()[i].New().ParseFlags(args); err != nil {
		t.Errorf("%s rejects the command line: %v", c.binary, err)
	}
	if dir := os.Getenv("PLATFORM_BIN_DIR"); dir != "" {
		runVersion(t, filepath.Join(dir, c.binary), args)
	}
}

// runVersion runs bin with args and --version: the flags are parsed, and
// nothing starts. It must exit 0.
func runVersion(t *testing.T, bin string, args []string) {
	t.Helper()
	out, err := exec.Command(bin, append(slices.Clone(args), "--version")...).CombinedOutput()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		t.Errorf("%s rejects the command line (exit code %d): %s", bin, exit.ExitCode(), out)
	case err != nil:
		t.Errorf("run %s: %v", bin, err)
	}
}

// flagValue is the value of --name=value in args, "" if absent.
func flagValue(args []string, name string) string {
	for _, a := range args {
		if v, ok := strings.CutPrefix(a, "--"+name+"="); ok {
			return v
		}
	}
	return ""
}

var variable = regexp.MustCompile(`\$\{(\w+)\}|\$(\w+)`)

// expandAll substitutes ${VAR} and $VAR from env, as systemd and envsubst
// do; a variable the example env file lacks fails t.
func expandAll(t *testing.T, words []string, env map[string]string) []string {
	t.Helper()
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = variable.ReplaceAllStringFunc(w, func(m string) string {
			name := strings.Trim(m, "${}")
			v, ok := env[name]
			if !ok {
				t.Errorf("%s uses $%s, which the example env file does not set", w, name)
			}
			return v
		})
	}
	return out
}

// readEnv reads systemd/<name>.env: KEY=VALUE lines and comments.
func readEnv(t *testing.T, name string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("systemd", name+".env"))
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{}
	for n, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || strings.ContainsAny(v, `"' `) {
			t.Fatalf("%s.env:%d: want KEY=VALUE without quotes or spaces: %q", name, n+1, line)
		}
		env[k] = v
	}
	return env
}

// readUnit reads a unit file into "Section.Key" values, joining lines
// continued with a backslash; a repeated key fails t.
func readUnit(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	u := map[string]string{}
	section, pending := "", ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if pending == "" && (line == "" || strings.HasPrefix(line, "#")) {
			continue
		}
		if cont, ok := strings.CutSuffix(line, `\`); ok {
			pending += cont + " "
			continue
		}
		line, pending = pending+line, ""
		if strings.HasPrefix(line, "[") {
			section = strings.Trim(line, "[]")
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			t.Fatalf("%s: not a key=value line: %q", path, line)
		}
		key := section + "." + k
		if _, dup := u[key]; dup {
			t.Fatalf("%s: %s set twice", path, key)
		}
		u[key] = v
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(u["Service.ExecStart"], `"'`) {
		t.Fatalf("%s: ExecStart has quotes, which this test does not parse", path)
	}
	return u
}

// readPod decodes a manifest strictly: an unknown field fails t.
func readPod(t *testing.T, path string) *corev1.Pod {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var pod corev1.Pod
	if err := yaml.UnmarshalStrict(data, &pod); err != nil {
		t.Fatal(fmt.Errorf("%s: %w", path, err))
	}
	return &pod
}

// TestAuditPolicy: the example audit policy is one the API server accepts.
func TestAuditPolicy(t *testing.T) {
	p, err := policy.LoadFile("config/audit-policy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Rules) == 0 {
		t.Error("the example policy has no rules")
	}
}
