package e2e

import (
	"slices"
	"testing"
)

func TestNamespaces(t *testing.T) {
	t.Parallel()
	s := StartServer(t)

	t.Run("system namespaces", func(t *testing.T) {
		out := s.MustKubectl(t, "get", "ns")
		WantHeader(t, out, "NAME")
		for _, ns := range []string{"default", "platform-system", "platform-public", "platform-node-lease"} {
			TableRow(t, out, ns)
		}
		names := ItemNames(t, s.GetJSON(t, "get", "namespaces"))
		for _, ns := range []string{"default", "platform-system", "platform-public", "platform-node-lease"} {
			if !slices.Contains(names, ns) {
				t.Errorf("get namespaces -o json: items %q lack %s", names, ns)
			}
		}
	})

	t.Run("create", func(t *testing.T) {
		s.CreateOrFallback(t, "namespace/e2e-team created", `apiVersion: v1
kind: Namespace
metadata:
  name: e2e-team
`, "create", "namespace", "e2e-team")
	})
	s.RequireObject(t, "namespace", "e2e-team")

	t.Run("get json", func(t *testing.T) {
		ns := s.GetJSON(t, "get", "ns", "e2e-team")
		WantField(t, ns, "v1", "apiVersion")
		WantField(t, ns, "Namespace", "kind")
		WantField(t, ns, "e2e-team", "metadata", "name")
		WantField(t, ns, "Active", "status", "phase")
		if Field(t, ns, "metadata", "uid") == "" || Field(t, ns, "metadata", "resourceVersion") == "" {
			t.Errorf("metadata.uid or resourceVersion empty: %s", compact(ns))
		}
		Field(t, ns, "metadata", "creationTimestamp")
		TableRow(t, s.MustKubectl(t, "get", "ns"), "e2e-team")
	})

	t.Run("create duplicate", func(t *testing.T) {
		r := s.KubectlFails(t, "create", "-f", WriteManifest(t, "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: e2e-team\n"))
		WantContains(t, r.Stderr, "AlreadyExists", `namespaces "e2e-team" already exists`)
	})

	t.Run("delete", func(t *testing.T) {
		// No namespace controller runs, so the namespace stays Terminating
		// with its finalizer; --wait=false keeps kubectl from waiting for it.
		s.Expect(t, `namespace "e2e-team" deleted`, "delete", "ns", "e2e-team", "--wait=false")
		r := s.Kubectl(t, "get", "ns", "e2e-team", "-o", "json")
		if r.Code != 0 {
			WantContains(t, r.Stderr, "NotFound")
			return
		}
		ns := s.GetJSON(t, "get", "ns", "e2e-team")
		WantField(t, ns, "Terminating", "status", "phase")
		Field(t, ns, "metadata", "deletionTimestamp")
	})
}
