package e2e

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestExplain(t *testing.T) {
	t.Parallel()
	s := StartServer(t)

	t.Run("pods.spec.containers", func(t *testing.T) {
		out := s.MustKubectl(t, "explain", "pods.spec.containers")
		WantMatch(t, out, `^KIND:\s+Pod$`, `^VERSION:\s+v1$`, `^FIELD:\s+containers\s+<\[\]Container>$`,
			`^DESCRIPTION:$`, `^FIELDS:$`, `^\s+image\s+<string>$`, `^\s+name\s+<string> -required-$`, `^\s+imagePullPolicy\s+<string>$`)
	})

	t.Run("deployment.spec.strategy", func(t *testing.T) {
		out := s.MustKubectl(t, "explain", "deployment.spec.strategy")
		WantMatch(t, out, `^KIND:\s+Deployment$`, `^GROUP:\s+apps$`, `^VERSION:\s+v1$`, `^FIELD:\s+strategy\s+<DeploymentStrategy>$`,
			`^DESCRIPTION:$`, `^FIELDS:$`, `^\s+rollingUpdate\s+<RollingUpdateDeployment>$`, `^\s+type\s+<string>$`)
	})

	t.Run("unknown field", func(t *testing.T) {
		r := s.KubectlFails(t, "explain", "pods.spec.nosuchfield")
		WantContains(t, r.Stderr, `field "nosuchfield" does not exist`)
	})
}

func TestSelectors(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	// "y" is quoted: YAML 1.1 reads a bare y as true.
	s.Expect(t, "configmap/x created\nconfigmap/y created\nconfigmap/z created", "create", "-f", WriteManifest(t, `apiVersion: v1
kind: ConfigMap
metadata:
  name: x
  labels:
    app: x
    tier: web
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: "y"
  labels:
    app: "y"
    tier: web
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: z
`))

	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"-l", "app=x"}, []string{"x"}},
		{[]string{"-l", "app!=x"}, []string{"y", "z"}},
		{[]string{"-l", "app in (x,y)"}, []string{"x", "y"}},
		{[]string{"-l", "tier=web,app=y"}, []string{"y"}},
		{[]string{"-l", "app"}, []string{"x", "y"}},
		{[]string{"-l", "!app"}, []string{"z"}},
		{[]string{"-l", "app=nothing"}, nil},
		{[]string{"--field-selector", "metadata.name=x"}, []string{"x"}},
		{[]string{"--field-selector", "metadata.name!=x"}, []string{"y", "z"}},
		{[]string{"--field-selector", "metadata.namespace=default"}, []string{"x", "y", "z"}},
		{[]string{"--field-selector", "metadata.name=x", "-l", "app=y"}, nil},
	} {
		args := append([]string{"get", "configmaps"}, c.args...)
		if got := ItemNames(t, s.GetJSON(t, args...)); !slices.Equal(got, c.want) {
			t.Errorf("kubectl %q: items %q, want %q", args, got, c.want)
		}
	}

	t.Run("table", func(t *testing.T) {
		out := s.MustKubectl(t, "get", "configmaps", "-l", "app=x")
		TableRow(t, out, "x")
		if rowOrNil(out, "y") != nil || rowOrNil(out, "z") != nil {
			t.Errorf("get configmaps -l app=x lists more than x:\n%s", out)
		}
		out = s.MustKubectl(t, "get", "configmaps", "--field-selector", "metadata.name=x")
		TableRow(t, out, "x")
		if rowOrNil(out, "y") != nil {
			t.Errorf("get configmaps --field-selector metadata.name=x lists more than x:\n%s", out)
		}
	})

	t.Run("bad field selector", func(t *testing.T) {
		r := s.KubectlFails(t, "get", "configmaps", "--field-selector", "data.a=b")
		WantContains(t, r.Stderr, "BadRequest", "data.a")
	})

	t.Run("delete by label", func(t *testing.T) {
		s.Expect(t, "configmap \"x\" deleted\nconfigmap \"y\" deleted", "delete", "configmaps", "-l", "tier=web")
		if got := ItemNames(t, s.GetJSON(t, "get", "configmaps")); !slices.Equal(got, []string{"z"}) {
			t.Errorf("after delete -l tier=web: items %q, want [z]", got)
		}
	})
}

func TestDeleteMissing(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	for _, c := range []struct{ kind, name, msg string }{
		{"configmap", "nope", `configmaps "nope" not found`},
		{"namespace", "nope", `namespaces "nope" not found`},
		{"pod", "nope", `pods "nope" not found`},
		{"deployment", "nope", `deployments.apps "nope" not found`},
		{"cronjob", "nope", `cronjobs.batch "nope" not found`},
	} {
		r := s.KubectlFails(t, "delete", c.kind, c.name)
		WantContains(t, r.Stderr, "Error from server (NotFound)", c.msg)
	}
	s.Expect(t, "", "delete", "configmap", "nope", "--ignore-not-found")
	r := s.KubectlFails(t, "delete", "configmap", "nope", "-n", "no-such-namespace")
	WantContains(t, r.Stderr, "NotFound")
}

// TestGracefulShutdown checks that SIGTERM stops the server with exit code
// 0 within 10s.
func TestGracefulShutdown(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	s.Expect(t, "ok", "get", "--raw", "/readyz")
	TableRow(t, s.MustKubectl(t, "get", "namespaces"), "default")

	start := time.Now()
	code, err := s.Stop()
	if err != nil {
		t.Fatalf("after SIGTERM: %v", err)
	}
	if code != 0 {
		t.Fatalf("exit code %d after SIGTERM, want 0", code)
	}
	t.Logf("exited 0 %v after SIGTERM", time.Since(start).Round(time.Millisecond))
	r := s.KubectlFails(t, "get", "--raw", "/healthz", "--request-timeout=5s")
	WantContains(t, r.Stderr, "was refused")
}

// TestProfiling: the stock kubectl reads the API server's profiles as an
// admin, as docs/apiserver.md tells operators to (kubectl get --raw).
func TestProfiling(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	WantContains(t, s.MustKubectl(t, "get", "--raw", "/debug/pprof/"), "goroutine", "heap")
	if heap := s.MustKubectl(t, "get", "--raw", "/debug/pprof/heap"); !strings.HasPrefix(heap, "\x1f\x8b") {
		t.Errorf("/debug/pprof/heap is not a gzipped profile: %.40q", heap)
	}
}
