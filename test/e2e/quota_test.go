package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

const limitRangeManifest = `apiVersion: v1
kind: LimitRange
metadata:
  name: cpu-bounds
  namespace: limited
spec:
  limits:
  - type: Container
    max:
      cpu: 500m
    min:
      cpu: 50m
    default:
      cpu: 300m
      memory: 256Mi
    defaultRequest:
      cpu: 100m
      memory: 128Mi
`

func quotaPodManifest(ns, name, resources string) string {
	return fmt.Sprintf(`apiVersion: v1
kind: Pod
metadata:
  name: %s
  namespace: %s
spec:
  containers:
  - name: app
    image: nginx%s
`, name, ns, resources)
}

// TestQuotaAndLimitRange drives the stock kubectl against the API server
// and the controller manager's resourcequota loop: kubectl create quota,
// the quota's status filled in, a pod over it refused with upstream's
// message and nothing stored; then kubectl apply of a pod in a namespace
// with a LimitRange shows the defaults, and a pod over its max is refused.
func TestQuotaAndLimitRange(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	s.StartProcess(t, "platform-controller-manager", "--bind-address", "127.0.0.1", "--secure-port", fmt.Sprint(freePort(t)),
		"--leader-elect=false", "--controllers=resourcequota,serviceaccount")

	s.Expect(t, "namespace/quoted created", "create", "namespace", "quoted")
	s.Expect(t, "resourcequota/pods created", "create", "quota", "pods", "-n", "quoted", "--hard=pods=1,configmaps=5")
	Eventually(t, 30*time.Second, "quota status filled in", func() string {
		return want(s.field(t, "{.status.hard.pods}/{.status.used.pods}", "get", "quota", "pods", "-n", "quoted"), "1/0")
	})
	s.Expect(t, "pod/first created", "apply", "-f", WriteManifest(t, quotaPodManifest("quoted", "first", "")))
	r := s.KubectlFails(t, "apply", "-f", WriteManifest(t, quotaPodManifest("quoted", "second", "")))
	WantContains(t, r.Stderr, `pods "second" is forbidden: exceeded quota: pods, requested: pods=1, used: pods=1, limited: pods=1`)
	if r := s.KubectlFails(t, "get", "pod", "second", "-n", "quoted"); !strings.Contains(r.Stderr, "not found") {
		t.Errorf("the refused pod was stored: %s", r)
	}
	WantContains(t, s.MustKubectl(t, "explain", "resourcequota.spec.hard"), "Hard is the most of each named resource")
	out := s.MustKubectl(t, "get", "quota", "-n", "quoted")
	WantHeader(t, out, "NAME", "AGE", "REQUEST", "LIMIT")
	WantContains(t, out, "configmaps: 0/5, pods: 1/1")

	// Deleting the pod gives its slot back once the loop has recounted.
	s.MustKubectl(t, "delete", "pod", "first", "-n", "quoted", "--grace-period=0", "--force")
	Eventually(t, 30*time.Second, "usage released", func() string {
		return want(s.field(t, "{.status.used.pods}", "get", "quota", "pods", "-n", "quoted"), "0")
	})
	s.Expect(t, "pod/second created", "apply", "-f", WriteManifest(t, quotaPodManifest("quoted", "second", "")))

	s.Expect(t, "namespace/limited created", "create", "namespace", "limited")
	s.Expect(t, "limitrange/cpu-bounds created", "apply", "-f", WriteManifest(t, limitRangeManifest))
	WantHeader(t, s.MustKubectl(t, "get", "limits", "-n", "limited"), "NAME", "CREATED AT")
	s.Expect(t, "pod/defaulted created", "apply", "-f", WriteManifest(t, quotaPodManifest("limited", "defaulted", "")))
	pod := s.GetJSON(t, "get", "pod", "defaulted", "-n", "limited")
	WantField(t, pod, map[string]any{
		"requests": map[string]any{"cpu": "100m", "memory": "128Mi"},
		"limits":   map[string]any{"cpu": "300m", "memory": "256Mi"},
	}, "spec", "containers", 0, "resources")
	WantField(t, pod, "LimitRanger plugin set: cpu, memory request for container app; cpu, memory limit for container app",
		"metadata", "annotations", "platform.io/limit-ranger")

	r = s.KubectlFails(t, "apply", "-f", WriteManifest(t, quotaPodManifest("limited", "greedy", "\n    resources:\n      limits:\n        cpu: \"1\"")))
	WantContains(t, r.Stderr, `pods "greedy" is forbidden: maximum cpu usage per Container is 500m, but limit is 1`)
}
