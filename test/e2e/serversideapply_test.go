package e2e

import (
	"os"
	"strings"
	"testing"
)

// TestServerSideApply runs the stock kubectl's server-side apply on the
// example manifests: twice, changed, with a conflicting second manager
// and forced; then shows managedFields and migrates a client-side apply.
func TestServerSideApply(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	const dir = "../../deploy/examples/"

	applied := []string{"deployment.apps/web serverside-applied", "service/web serverside-applied",
		"cronjob.batch/", "daemonset.apps/", "job.batch/"}
	t.Run("apply examples", func(t *testing.T) {
		WantContains(t, s.MustKubectl(t, "apply", "--server-side", "-f", dir), applied...)
	})
	t.Run("apply again", func(t *testing.T) {
		rv := s.field(t, "{.metadata.resourceVersion}", "get", "deployment", "web")
		WantContains(t, s.MustKubectl(t, "apply", "--server-side", "-f", dir), applied...)
		if got := s.field(t, "{.metadata.resourceVersion}", "get", "deployment", "web"); got != rv {
			t.Fatalf("re-applying the same manifests wrote the deployment: resourceVersion %s -> %s", rv, got)
		}
	})

	example, err := os.ReadFile(dir + "deployment.yaml")
	if err != nil {
		t.Fatal(err)
	}
	withReplicas := func(n string) string {
		return strings.Replace(string(example), "replicas: 3", "replicas: "+n, 1)
	}
	t.Run("apply changed", func(t *testing.T) {
		WantContains(t, s.MustKubectl(t, "apply", "--server-side", "-f", WriteManifest(t, withReplicas("5"))), "deployment.apps/web serverside-applied")
		if got := s.field(t, "{.spec.replicas}", "get", "deployment", "web"); got != "5" {
			t.Fatalf("replicas %s, want 5", got)
		}
	})
	t.Run("second manager conflicts", func(t *testing.T) {
		r := s.KubectlFails(t, "apply", "--server-side", "--field-manager=ops", "-f", WriteManifest(t, withReplicas("7")))
		WantContains(t, r.Stderr, `Apply failed with 1 conflict: conflict with "kubectl": .spec.replicas`)
		if got := s.field(t, "{.spec.replicas}", "get", "deployment", "web"); got != "5" {
			t.Fatalf("replicas %s after a conflict, want 5", got)
		}
	})
	t.Run("forced", func(t *testing.T) {
		s.MustKubectl(t, "apply", "--server-side", "--field-manager=ops", "--force-conflicts", "-f", WriteManifest(t, withReplicas("7")))
		if got := s.field(t, "{.spec.replicas}", "get", "deployment", "web"); got != "7" {
			t.Fatalf("replicas %s after a forced apply, want 7", got)
		}
	})
	t.Run("show managed fields", func(t *testing.T) {
		out := s.MustKubectl(t, "get", "deployment", "web", "-o", "yaml", "--show-managed-fields")
		WantContains(t, out, "managedFields:", "manager: kubectl", "manager: ops", "operation: Apply", "fieldsType: FieldsV1", "f:replicas: {}")
		if plain := s.MustKubectl(t, "get", "deployment", "web", "-o", "yaml"); strings.Contains(plain, "managedFields") {
			t.Fatalf("kubectl get -o yaml shows managedFields without --show-managed-fields:\n%s", plain)
		}
	})
	t.Run("migrate from client-side apply", func(t *testing.T) {
		cm := func(v string) string {
			return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: migrated\n  namespace: default\ndata:\n  key: " + v + "\n"
		}
		s.Expect(t, "configmap/migrated created", "apply", "-f", WriteManifest(t, cm("one")))
		// Another manager may not take a field client-side apply set...
		r := s.KubectlFails(t, "apply", "--server-side", "--field-manager=ops", "-f", WriteManifest(t, cm("two")))
		WantContains(t, r.Stderr, `conflict with "kubectl-client-side-apply"`)
		// ...but kubectl's server-side apply takes them over.
		s.Expect(t, "configmap/migrated serverside-applied", "apply", "--server-side", "-f", WriteManifest(t, cm("two")))
		out := s.MustKubectl(t, "get", "configmap", "migrated", "-o", "yaml", "--show-managed-fields")
		WantContains(t, out, "key: two", "manager: kubectl\n    operation: Apply")
		if got := s.field(t, "{.metadata.annotations.kubectl\\.kubernetes\\.io/last-applied-configuration}", "get", "configmap", "migrated"); !strings.Contains(got, `"key":"two"`) {
			t.Fatalf("last-applied annotation not kept in step: %s", got)
		}
	})
}
