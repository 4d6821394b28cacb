package e2e

import (
	"strings"
	"testing"
)

// deploymentManifest is a two-container deployment named name.
func deploymentManifest(name, image string) string {
	return strings.NewReplacer("NAME", name, "IMAGE", image).Replace(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: NAME
  labels:
    app: NAME
spec:
  replicas: 2
  selector:
    matchLabels:
      app: NAME
  template:
    metadata:
      labels:
        app: NAME
    spec:
      containers:
      - name: nginx
        image: IMAGE
      - name: sidecar
        image: busybox:1.36
        command: ["sleep", "3600"]
`)
}

func TestDeployments(t *testing.T) {
	t.Parallel()
	s := StartServer(t)

	t.Run("create", func(t *testing.T) {
		s.Expect(t, "deployment.apps/web created", "create", "-f", WriteManifest(t, deploymentManifest("web", "nginx:1.27")))
	})
	s.RequireObject(t, "deployment", "web")

	t.Run("get wide", func(t *testing.T) {
		out := s.MustKubectl(t, "get", "deployments", "-o", "wide")
		WantHeader(t, out, "NAME")
		TableRow(t, out, "web")
		TableRow(t, s.MustKubectl(t, "get", "deploy"), "web")
	})

	t.Run("defaults", func(t *testing.T) {
		d := s.GetJSON(t, "get", "deployment", "web")
		WantField(t, d, "apps/v1", "apiVersion")
		WantField(t, d, "Deployment", "kind")
		WantField(t, d, 2, "spec", "replicas")
		WantField(t, d, 1, "metadata", "generation")
		WantField(t, d, "RollingUpdate", "spec", "strategy", "type")
		WantField(t, d, "25%", "spec", "strategy", "rollingUpdate", "maxSurge")
		WantField(t, d, "25%", "spec", "strategy", "rollingUpdate", "maxUnavailable")
		WantField(t, d, 10, "spec", "revisionHistoryLimit")
		WantField(t, d, 600, "spec", "progressDeadlineSeconds")
		WantField(t, d, "Always", "spec", "template", "spec", "restartPolicy")
		WantField(t, d, "ClusterFirst", "spec", "template", "spec", "dnsPolicy")
		WantField(t, d, 30, "spec", "template", "spec", "terminationGracePeriodSeconds")
		WantField(t, d, "IfNotPresent", "spec", "template", "spec", "containers", 0, "imagePullPolicy")
	})

	t.Run("scale", func(t *testing.T) {
		s.Expect(t, "deployment.apps/web scaled", "scale", "deployment", "web", "--replicas=5")
		WantField(t, s.GetJSON(t, "get", "deployment", "web"), 5, "spec", "replicas")
		// A precondition on the current size that does not hold fails.
		r := s.KubectlFails(t, "scale", "deployment", "web", "--current-replicas=2", "--replicas=3")
		WantContains(t, r.Stderr, "Expected replicas to be 2, was 5")
		WantField(t, s.GetJSON(t, "get", "deployment", "web"), 5, "spec", "replicas")
	})

	t.Run("patch json", func(t *testing.T) {
		s.Expect(t, "deployment.apps/web patched", "patch", "deployment", "web", "--type=json",
			"-p", `[{"op":"replace","path":"/spec/replicas","value":3}]`)
		WantField(t, s.GetJSON(t, "get", "deployment", "web"), 3, "spec", "replicas")
	})

	t.Run("patch merge", func(t *testing.T) {
		s.Expect(t, "deployment.apps/web patched", "patch", "deployment", "web", "--type=merge",
			"-p", `{"spec":{"minReadySeconds":5,"strategy":{"rollingUpdate":{"maxSurge":1}}}}`)
		d := s.GetJSON(t, "get", "deployment", "web")
		WantField(t, d, 5, "spec", "minReadySeconds")
		WantField(t, d, 1, "spec", "strategy", "rollingUpdate", "maxSurge")
		WantField(t, d, "25%", "spec", "strategy", "rollingUpdate", "maxUnavailable")
	})

	t.Run("patch strategic", func(t *testing.T) {
		// Containers merge by name: the sidecar stays, nginx gains an env var.
		s.Expect(t, "deployment.apps/web patched", "patch", "deployment", "web", "--type=strategic",
			"-p", `{"spec":{"template":{"spec":{"containers":[{"name":"nginx","env":[{"name":"MODE","value":"e2e"}]}]}}}}`)
		d := s.GetJSON(t, "get", "deployment", "web")
		containers := Field(t, d, "spec", "template", "spec", "containers").([]any)
		if len(containers) != 2 {
			t.Fatalf("want 2 containers after a strategic merge patch, got %s", compact(containers))
		}
		WantField(t, d, "nginx", "spec", "template", "spec", "containers", 0, "name")
		WantField(t, d, []map[string]string{{"name": "MODE", "value": "e2e"}}, "spec", "template", "spec", "containers", 0, "env")
		WantField(t, d, "nginx:1.27", "spec", "template", "spec", "containers", 0, "image")
		WantField(t, d, "sidecar", "spec", "template", "spec", "containers", 1, "name")
	})

	t.Run("annotate", func(t *testing.T) {
		s.Expect(t, "deployment.apps/web annotated", "annotate", "deployment", "web", "example.com/change=e2e")
		WantField(t, s.GetJSON(t, "get", "deployment", "web"), "e2e", "metadata", "annotations", "example.com/change")
	})

	t.Run("describe", func(t *testing.T) {
		out := s.MustKubectl(t, "describe", "deployment", "web")
		WantMatch(t, out, `^Name:\s+web$`, `^Namespace:\s+default$`, `^Selector:\s+app=web$`,
			`^Replicas:\s+3 desired`, `^StrategyType:\s+RollingUpdate$`, `^MinReadySeconds:\s+5$`,
			`^Pod Template:$`, `^\s+Image:\s+nginx:1\.27$`, `^\s+MODE:\s+e2e$`)
	})

	t.Run("invalid", func(t *testing.T) {
		// The selector must match the template's labels.
		m := strings.Replace(deploymentManifest("bad", "nginx"), "      labels:\n        app: bad", "      labels:\n        app: other", 1)
		r := s.KubectlFails(t, "create", "-f", WriteManifest(t, m))
		WantContains(t, r.Stderr, `The Deployment "bad" is invalid`, "spec.template.metadata.labels: Invalid value")
	})

	t.Run("apply twice", func(t *testing.T) {
		s.Expect(t, "deployment.apps/applied created", "apply", "-f", WriteManifest(t, deploymentManifest("applied", "nginx:1.26")))
		s.Expect(t, "deployment.apps/applied configured", "apply", "-f", WriteManifest(t, deploymentManifest("applied", "nginx:1.27")))
		d := s.GetJSON(t, "get", "deployment", "applied")
		WantField(t, d, "nginx:1.27", "spec", "template", "spec", "containers", 0, "image")
		WantField(t, d, "busybox:1.36", "spec", "template", "spec", "containers", 1, "image")
		// A spec change bumps the generation.
		WantField(t, d, 2, "metadata", "generation")
	})

	t.Run("delete", func(t *testing.T) {
		s.Expect(t, `deployment.apps "web" deleted`, "delete", "deployment", "web")
		s.Expect(t, `deployment.apps "applied" deleted`, "delete", "deployment", "applied")
		r := s.KubectlFails(t, "get", "deployment", "web")
		WantContains(t, r.Stderr, "NotFound", `deployments.apps "web" not found`)
	})
}

func daemonSetManifest(name, image string) string {
	return strings.NewReplacer("NAME", name, "IMAGE", image).Replace(`apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: NAME
spec:
  selector:
    matchLabels:
      app: NAME
  template:
    metadata:
      labels:
        app: NAME
    spec:
      containers:
      - name: agent
        image: IMAGE
`)
}

func TestDaemonSets(t *testing.T) {
	t.Parallel()
	s := StartServer(t)

	t.Run("create", func(t *testing.T) {
		s.Expect(t, "daemonset.apps/logs created", "create", "-f", WriteManifest(t, daemonSetManifest("logs", "fluentd:v1.17")))
	})
	s.RequireObject(t, "daemonset", "logs")

	t.Run("get", func(t *testing.T) {
		out := s.MustKubectl(t, "get", "daemonsets")
		WantHeader(t, out, "NAME")
		TableRow(t, out, "logs")
		ds := s.GetJSON(t, "get", "ds", "logs")
		WantField(t, ds, "DaemonSet", "kind")
		WantField(t, ds, "RollingUpdate", "spec", "updateStrategy", "type")
		WantField(t, ds, 1, "spec", "updateStrategy", "rollingUpdate", "maxUnavailable")
		WantField(t, ds, 10, "spec", "revisionHistoryLimit")
		WantField(t, ds, "Always", "spec", "template", "spec", "restartPolicy")
	})

	t.Run("apply twice", func(t *testing.T) {
		s.Expect(t, "daemonset.apps/agent created", "apply", "-f", WriteManifest(t, daemonSetManifest("agent", "fluentd:v1.16")))
		s.Expect(t, "daemonset.apps/agent configured", "apply", "-f", WriteManifest(t, daemonSetManifest("agent", "fluentd:v1.17")))
		ds := s.GetJSON(t, "get", "daemonset", "agent")
		WantField(t, ds, "fluentd:v1.17", "spec", "template", "spec", "containers", 0, "image")
		WantField(t, ds, 2, "metadata", "generation")
	})

	t.Run("delete", func(t *testing.T) {
		s.Expect(t, `daemonset.apps "logs" deleted`, "delete", "daemonset", "logs")
		s.Expect(t, `daemonset.apps "agent" deleted`, "delete", "-f", WriteManifest(t, daemonSetManifest("agent", "x")))
		r := s.KubectlFails(t, "get", "daemonset", "logs")
		WantContains(t, r.Stderr, "NotFound")
	})
}
