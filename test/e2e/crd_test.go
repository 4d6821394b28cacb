package e2e

import (
	"strings"
	"testing"
)

const crontabCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames: [ct]
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [cronSpec]
            properties:
              cronSpec: {type: string}
              image: {type: string, default: busybox}
              replicas: {type: integer, minimum: 1}
`

// TestCustomResources drives a custom resource with the stock kubectl: a
// CRD manifest in upstream's group installed with apply, objects created,
// listed by plural and short name, patched and refused when invalid, and
// the CRD deleted with its objects.
func TestCustomResources(t *testing.T) {
	t.Parallel()
	s := StartServer(t)

	s.Expect(t, "customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created", "apply", "-f", WriteManifest(t, crontabCRD))
	s.MustKubectl(t, "wait", "--for=condition=Established", "--timeout=30s", "crd/crontabs.stable.example.com")
	WantContains(t, s.MustKubectl(t, "get", "crd"), "crontabs.stable.example.com")

	s.Expect(t, "crontab.stable.example.com/nightly created", "apply", "-f", WriteManifest(t, `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: nightly
spec:
  cronSpec: "0 3 * * *"
  replicas: 2
`))
	WantContains(t, s.MustKubectl(t, "get", "crontabs"), "nightly")
	WantContains(t, s.MustKubectl(t, "get", "ct", "nightly"), "nightly")
	WantField(t, s.GetJSON(t, "get", "crontab", "nightly"), "busybox", "spec", "image")

	s.Expect(t, "crontab.stable.example.com/nightly patched", "patch", "ct", "nightly", "--type=merge", "-p", `{"spec":{"replicas":3}}`)
	s.Expect(t, "crontab.stable.example.com/nightly patched", "patch", "ct", "nightly", "--type=json", "-p", `[{"op":"replace","path":"/spec/image","value":"alpine"}]`)
	cr := s.GetJSON(t, "get", "ct", "nightly")
	WantField(t, cr, float64(3), "spec", "replicas")
	WantField(t, cr, "alpine", "spec", "image")

	r := s.KubectlFails(t, "patch", "ct", "nightly", "--type=merge", "-p", `{"spec":{"replicas":0}}`)
	WantContains(t, r.Stderr, "spec.replicas", "should be greater than or equal to 1")

	s.Expect(t, `customresourcedefinition.apiextensions.k8s.io "crontabs.stable.example.com" deleted`, "delete", "crd", "crontabs.stable.example.com")
	// kubectl's discovery cache may still name the type: either way the
	// server no longer serves it.
	r = s.KubectlFails(t, "get", "crontabs")
	if !strings.Contains(r.Stderr, "the server doesn't have a resource type") && !strings.Contains(r.Stderr, "the server could not find the requested resource") {
		t.Errorf("after the CRD is deleted, kubectl get crontabs: %s", r)
	}
	if apis := s.MustKubectl(t, "get", "--raw", "/apis"); strings.Contains(apis, `"stable.example.com"`) {
		t.Errorf("the group is still discovered: %s", apis)
	}
}
