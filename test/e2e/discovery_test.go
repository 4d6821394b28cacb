package e2e

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestDiscovery(t *testing.T) {
	t.Parallel()
	s := StartServer(t)

	t.Run("version", func(t *testing.T) {
		out := s.MustKubectl(t, "version")
		WantMatch(t, out, `^Client Version: v1\.`, `^Server Version: v1\.32\.\S+`)

		var v struct {
			ServerVersion *struct {
				Major, Minor, GitVersion, Platform string
			} `json:"serverVersion"`
		}
		out = s.MustKubectl(t, "version", "-o", "json")
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatalf("decode kubectl version -o json: %v\n%s", err, out)
		}
		if v.ServerVersion == nil {
			t.Fatalf("no serverVersion in:\n%s", out)
		}
		if v.ServerVersion.Major != "1" || v.ServerVersion.Minor != "32" || !strings.HasPrefix(v.ServerVersion.GitVersion, "v1.32.") {
			t.Errorf("serverVersion = %+v, want major 1, minor 32, gitVersion v1.32.*", *v.ServerVersion)
		}
		if v.ServerVersion.Platform == "" {
			t.Errorf("serverVersion.platform is empty")
		}
	})

	t.Run("api-resources", func(t *testing.T) {
		out := s.MustKubectl(t, "api-resources")
		WantHeader(t, out, "NAME", "SHORTNAMES", "APIVERSION", "NAMESPACED", "KIND")
		for _, want := range [][]string{
			{"namespaces", "ns", "v1", "false", "Namespace"},
			{"configmaps", "cm", "v1", "true", "ConfigMap"},
			{"pods", "po", "v1", "true", "Pod"},
			{"deployments", "deploy", "apps/v1", "true", "Deployment"},
			{"daemonsets", "ds", "apps/v1", "true", "DaemonSet"},
			{"cronjobs", "cj", "batch/v1", "true", "CronJob"},
		} {
			if got := rowOrNil(out, want[0]); !slices.Equal(got, want) {
				t.Errorf("api-resources row %q = %q, want %q", want[0], got, want)
			}
		}

		names := strings.Fields(s.MustKubectl(t, "api-resources", "-o", "name", "--api-group=batch"))
		if !slices.Contains(names, "cronjobs.batch") || !slices.Contains(names, "jobs.batch") {
			t.Errorf("api-resources --api-group=batch -o name = %q, want cronjobs.batch and jobs.batch", names)
		}
		names = strings.Fields(s.MustKubectl(t, "api-resources", "-o", "name", "--namespaced=false"))
		if !slices.Contains(names, "namespaces") || slices.Contains(names, "pods") {
			t.Errorf("api-resources --namespaced=false -o name = %q, want namespaces and not pods", names)
		}
	})

	t.Run("api-versions", func(t *testing.T) {
		versions := strings.Fields(s.MustKubectl(t, "api-versions"))
		for _, want := range []string{"v1", "apps/v1", "batch/v1", "batch/v1beta1"} {
			if !slices.Contains(versions, want) {
				t.Errorf("api-versions = %q, want %s among them", versions, want)
			}
		}
	})

	t.Run("raw health", func(t *testing.T) {
		for _, path := range []string{"/healthz", "/livez", "/readyz"} {
			s.Expect(t, "ok", "get", "--raw", path)
		}
		out := s.MustKubectl(t, "get", "--raw", "/readyz?verbose")
		WantMatch(t, out, `^\[\+\]\S+ ok$`, `passed$`)
	})

	t.Run("raw missing path", func(t *testing.T) {
		r := s.KubectlFails(t, "get", "--raw", "/apis/nosuchgroup.example.com/v1")
		WantContains(t, r.Stderr, "NotFound")
	})
}

// rowOrNil returns the fields of the table row named name, or nil.
func rowOrNil(out, name string) []string {
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) > 0 && f[0] == name {
			return f
		}
	}
	return nil
}
