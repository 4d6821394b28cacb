package e2e

import (
	"slices"
	"testing"
)

const podManifest = `apiVersion: v1
kind: Pod
metadata:
  name: web
  labels:
    app: web
spec:
  containers:
  - name: nginx
    image: nginx:1.27
    ports:
    - containerPort: 80
  - name: sidecar
    image: busybox
    command: ["sh", "-c", "sleep 3600"]
`

func TestPods(t *testing.T) {
	t.Parallel()
	s := StartServer(t)

	t.Run("create", func(t *testing.T) {
		s.Expect(t, "pod/web created", "create", "-f", WriteManifest(t, podManifest))
	})
	s.RequireObject(t, "pod", "web")

	t.Run("get wide", func(t *testing.T) {
		out := s.MustKubectl(t, "get", "pods", "-o", "wide")
		WantHeader(t, out, "NAME")
		TableRow(t, out, "web")
	})

	t.Run("defaults", func(t *testing.T) {
		pod := s.GetJSON(t, "get", "pod", "web")
		WantField(t, pod, "v1", "apiVersion")
		WantField(t, pod, "Pod", "kind")
		WantField(t, pod, "default", "metadata", "namespace")
		WantField(t, pod, "Always", "spec", "restartPolicy")
		WantField(t, pod, "ClusterFirst", "spec", "dnsPolicy")
		WantField(t, pod, "default-scheduler", "spec", "schedulerName")
		WantField(t, pod, 30, "spec", "terminationGracePeriodSeconds")
		WantField(t, pod, "nginx", "spec", "containers", 0, "name")
		WantField(t, pod, "sidecar", "spec", "containers", 1, "name")
		// A tagged image is pulled if not present, :latest (or no tag) always.
		WantField(t, pod, "IfNotPresent", "spec", "containers", 0, "imagePullPolicy")
		WantField(t, pod, "Always", "spec", "containers", 1, "imagePullPolicy")
		WantField(t, pod, "TCP", "spec", "containers", 0, "ports", 0, "protocol")
		for i := range 2 {
			WantField(t, pod, "/dev/termination-log", "spec", "containers", i, "terminationMessagePath")
			WantField(t, pod, "File", "spec", "containers", i, "terminationMessagePolicy")
		}
		WantField(t, pod, "Pending", "status", "phase")
	})

	t.Run("describe", func(t *testing.T) {
		out := s.MustKubectl(t, "describe", "pod", "web")
		WantMatch(t, out, `^Name:\s+web$`, `^Namespace:\s+default$`, `^Labels:\s+app=web$`, `^Containers:$`,
			`^  nginx:$`, `^    Image:\s+nginx:1\.27$`, `^  sidecar:$`, `^    Image:\s+busybox$`)
	})

	t.Run("label", func(t *testing.T) {
		s.Expect(t, "pod/web labeled", "label", "pod", "web", "tier=frontend")
		WantField(t, s.GetJSON(t, "get", "pod", "web"), map[string]string{"app": "web", "tier": "frontend"}, "metadata", "labels")
		if names := ItemNames(t, s.GetJSON(t, "get", "pods", "-l", "tier=frontend")); !slices.Equal(names, []string{"web"}) {
			t.Errorf("get pods -l tier=frontend: items %q, want [web]", names)
		}
	})

	t.Run("apply twice", func(t *testing.T) {
		manifest := func(image string) string {
			return "apiVersion: v1\nkind: Pod\nmetadata:\n  name: applied\nspec:\n  containers:\n  - name: app\n    image: " + image + "\n"
		}
		s.Expect(t, "pod/applied created", "apply", "-f", WriteManifest(t, manifest("nginx:1.26")))
		s.Expect(t, "pod/applied configured", "apply", "-f", WriteManifest(t, manifest("nginx:1.27")))
		pod := s.GetJSON(t, "get", "pod", "applied")
		WantField(t, pod, "nginx:1.27", "spec", "containers", 0, "image")
		s.Expect(t, "pod/applied unchanged", "apply", "-f", WriteManifest(t, manifest("nginx:1.27")))
	})

	t.Run("forbidden update", func(t *testing.T) {
		// Only images and a few other fields of a pod may change.
		r := s.KubectlFails(t, "patch", "pod", "web", "--type=json", "-p", `[{"op":"replace","path":"/spec/containers/0/name","value":"renamed"}]`)
		WantContains(t, r.Stderr, `The Pod "web" is invalid`, "spec: Forbidden: pod updates may not change fields other than")
	})

	t.Run("invalid name", func(t *testing.T) {
		r := s.KubectlFails(t, "create", "-f", WriteManifest(t, "apiVersion: v1\nkind: Pod\nmetadata:\n  name: Bad-Pod\nspec:\n  containers:\n  - name: app\n    image: nginx\n"))
		WantContains(t, r.Stderr, `The Pod "Bad-Pod" is invalid`, `metadata.name: Invalid value: "Bad-Pod"`)
		s.KubectlFails(t, "get", "pod", "Bad-Pod")
	})

	t.Run("invalid spec", func(t *testing.T) {
		r := s.KubectlFails(t, "create", "-f", WriteManifest(t, "apiVersion: v1\nkind: Pod\nmetadata:\n  name: noimage\nspec:\n  containers:\n  - name: app\n"))
		WantContains(t, r.Stderr, `The Pod "noimage" is invalid`, "spec.containers[0].image: Required value")
	})

	t.Run("delete", func(t *testing.T) {
		// An unscheduled pod goes at once; kubectl waits for it to be gone.
		s.Expect(t, `pod "web" deleted`, "delete", "pod", "web", "--timeout=20s")
		s.Expect(t, `pod "applied" deleted`, "delete", "pod", "applied", "--timeout=20s")
		r := s.KubectlFails(t, "get", "pod", "web")
		WantContains(t, r.Stderr, "NotFound", `pods "web" not found`)
	})
}
