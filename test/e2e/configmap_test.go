package e2e

import (
	"encoding/json"
	"testing"
)

func TestConfigMaps(t *testing.T) {
	t.Parallel()
	s := StartServer(t)

	t.Run("create from literal", func(t *testing.T) {
		s.CreateOrFallback(t, "configmap/x created", `apiVersion: v1
kind: ConfigMap
metadata:
  name: x
data:
  a: b
`, "create", "configmap", "x", "--from-literal=a=b")
	})
	s.RequireObject(t, "configmap", "x")

	t.Run("get yaml", func(t *testing.T) {
		out := s.MustKubectl(t, "get", "configmap", "x", "-o", "yaml")
		WantMatch(t, out, `^apiVersion: v1$`, `^kind: ConfigMap$`, `^data:\n  a: b$`, `^  name: x$`, `^  namespace: default$`, `^  resourceVersion: "\d+"$`, `^  uid: \S+$`)
	})

	t.Run("patch json", func(t *testing.T) {
		s.Expect(t, "configmap/x patched", "patch", "configmap", "x", "--type=json",
			"-p", `[{"op":"add","path":"/data/c","value":"d"},{"op":"test","path":"/data/a","value":"b"}]`)
		cm := s.GetJSON(t, "get", "configmap", "x")
		WantField(t, cm, map[string]string{"a": "b", "c": "d"}, "data")

		r := s.KubectlFails(t, "patch", "configmap", "x", "--type=json", "-p", `[{"op":"test","path":"/data/a","value":"wrong"}]`)
		// A JSON patch that does not apply is a 422, as upstream; kubectl
		// prints it as an invalid request.
		WantContains(t, r.Stderr, "test failed")
	})

	t.Run("patch merge", func(t *testing.T) {
		s.Expect(t, "configmap/x patched", "patch", "configmap", "x", "--type=merge", "-p", `{"data":{"c":null,"e":"f"}}`)
		WantField(t, s.GetJSON(t, "get", "configmap", "x"), map[string]string{"a": "b", "e": "f"}, "data")
	})

	t.Run("patch strategic", func(t *testing.T) {
		s.Expect(t, "configmap/x patched", "patch", "configmap", "x", "--type=strategic", "-p", `{"data":{"g":"h"}}`)
		WantField(t, s.GetJSON(t, "get", "configmap", "x"), map[string]string{"a": "b", "e": "f", "g": "h"}, "data")
		s.Expect(t, "configmap/x patched (no change)", "patch", "configmap", "x", "-p", `{"data":{"g":"h"}}`)
	})

	t.Run("label", func(t *testing.T) {
		s.Expect(t, "configmap/x labeled", "label", "configmap", "x", "app=x", "tier=config")
		WantField(t, s.GetJSON(t, "get", "configmap", "x"), map[string]string{"app": "x", "tier": "config"}, "metadata", "labels")
		r := s.KubectlFails(t, "label", "configmap", "x", "app=other")
		WantContains(t, r.Stderr, "already has a value (x)")
		s.Expect(t, "configmap/x unlabeled", "label", "configmap", "x", "tier-")
		WantField(t, s.GetJSON(t, "get", "configmap", "x"), map[string]string{"app": "x"}, "metadata", "labels")
	})

	t.Run("annotate", func(t *testing.T) {
		s.Expect(t, "configmap/x annotated", "annotate", "configmap", "x", "example.com/owner=team-a")
		s.Expect(t, "configmap/x annotated", "annotate", "configmap", "x", "--overwrite", "example.com/owner=team-b")
		WantField(t, s.GetJSON(t, "get", "configmap", "x"), "team-b", "metadata", "annotations", "example.com/owner")
	})

	t.Run("replace", func(t *testing.T) {
		cm := s.GetJSON(t, "get", "configmap", "x")
		stale := WriteJSON(t, cm)
		cm["data"].(map[string]any)["r"] = "s"
		s.Expect(t, "configmap/x replaced", "replace", "-f", WriteJSON(t, cm))
		after := s.GetJSON(t, "get", "configmap", "x")
		WantField(t, after, map[string]string{"a": "b", "e": "f", "g": "h", "r": "s"}, "data")
		WantField(t, after, "x", "metadata", "labels", "app")
		if Field(t, after, "metadata", "resourceVersion") == Field(t, cm, "metadata", "resourceVersion") {
			t.Errorf("resourceVersion did not change on replace")
		}

		// The first copy's resourceVersion is stale now.
		r := s.KubectlFails(t, "replace", "-f", stale)
		WantContains(t, r.Stderr, "Conflict", "the object has been modified")
	})

	t.Run("apply twice", func(t *testing.T) {
		v1 := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\n  labels:\n    app: applied\ndata:\n  mode: blue\n  keep: \"yes\"\n"
		v2 := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\n  labels:\n    app: applied\ndata:\n  mode: green\n"
		s.Expect(t, "configmap/applied created", "apply", "-f", WriteManifest(t, v1))
		WantField(t, s.GetJSON(t, "get", "configmap", "applied"), map[string]string{"mode": "blue", "keep": "yes"}, "data")

		s.Expect(t, "configmap/applied configured", "apply", "-f", WriteManifest(t, v2))
		cm := s.GetJSON(t, "get", "configmap", "applied")
		// keep was in the last applied configuration and is gone from the
		// new one, so apply removes it.
		WantField(t, cm, map[string]string{"mode": "green"}, "data")
		last := Field(t, cm, "metadata", "annotations", "kubectl.kubernetes.io/last-applied-configuration").(string)
		var applied map[string]any
		if err := json.Unmarshal([]byte(last), &applied); err != nil {
			t.Fatalf("last-applied-configuration is not JSON: %v: %s", err, last)
		}
		WantField(t, applied, map[string]string{"mode": "green"}, "data")

		s.Expect(t, "configmap/applied unchanged", "apply", "-f", WriteManifest(t, v2))
	})

	t.Run("delete", func(t *testing.T) {
		s.Expect(t, `configmap "x" deleted`, "delete", "configmap", "x")
		s.Expect(t, `configmap "applied" deleted`, "delete", "-f", WriteManifest(t, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\n"))
		r := s.KubectlFails(t, "get", "configmap", "x")
		WantContains(t, r.Stderr, `configmaps "x" not found`)
		out := s.Kubectl(t, "get", "configmaps")
		if out.Code != 0 || out.Stdout != "" {
			t.Errorf("want no configmaps left:\n%s", out)
		}
	})
}
