package e2e

import (
	"encoding/json"
	"fmt"
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
    categories: [all]
  versions:
  - name: v1
    served: true
    storage: true
    additionalPrinterColumns:
    - {name: Schedule, type: string, jsonPath: .spec.cronSpec}
    - {name: Replicas, type: integer, jsonPath: .spec.replicas}
    subresources:
      status: {}
      scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas}
    schema:
      openAPIV3Schema:
        type: object
        description: CronTab runs a container image on a schedule.
        properties:
          spec:
            type: object
            required: [cronSpec]
            properties:
              cronSpec: {type: string, description: "The schedule, in the five fields of crontab(5)."}
              image: {type: string, default: busybox}
              replicas: {type: integer, minimum: 1, maximum: 10}
          status:
            type: object
            properties:
              replicas: {type: integer}
`

// TestCustomResources drives a custom resource with the stock kubectl: a
// CRD manifest in upstream's group installed with apply, objects created,
// listed by plural, short name and category with the printer columns,
// explained from the OpenAPI documents, scaled, patched (a strategic
// merge patch refused as upstream), applied server-side, refused when
// invalid or, with --validate=strict, carrying an unknown field, and the
// CRD deleted with its objects.
func TestCustomResources(t *testing.T) {
	t.Parallel()
	s := StartServer(t)

	s.Expect(t, "customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created", "apply", "-f", WriteManifest(t, crontabCRD))
	s.MustKubectl(t, "wait", "--for=condition=Established", "--timeout=30s", "crd/crontabs.stable.example.com")
	// The short name is served in one group only, so kubectl has no
	// ambiguity to warn of.
	if r := s.Kubectl(t, "get", "crd"); r.Code != 0 || !strings.Contains(r.Stdout, "crontabs.stable.example.com") || strings.Contains(r.Stderr, "could also match") {
		t.Errorf("kubectl get crd:\n%s", r)
	}

	s.Expect(t, "crontab.stable.example.com/nightly created", "apply", "-f", WriteManifest(t, `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: nightly
spec:
  cronSpec: "0 3 * * *"
  replicas: 2
`))
	list := s.MustKubectl(t, "get", "crontabs")
	WantHeader(t, list, "NAME", "SCHEDULE", "REPLICAS")
	if row := TableRow(t, list, "nightly"); len(row) < 7 || row[6] != "2" {
		t.Errorf("nightly's row %q: want the schedule's five fields and 2 replicas", row)
	}
	WantContains(t, s.MustKubectl(t, "get", "ct", "nightly"), "nightly")
	WantContains(t, s.MustKubectl(t, "get", "all"), "crontab.stable.example.com/nightly")

	// explain reads the group version's OpenAPI v3 document.
	WantContains(t, s.MustKubectl(t, "explain", "crontabs"), "KIND:       CronTab", "CronTab runs a container image on a schedule.",
		"spec\t<Object>", "metadata\t<ObjectMeta>")
	WantContains(t, s.MustKubectl(t, "explain", "crontabs.spec.cronSpec"), "FIELD: cronSpec <string>", "The schedule, in the five fields of crontab(5).")
	// kubectl 1.32 sends fieldValidation=Strict and leaves the check to
	// the server, which knows the schema (it does so with or without the
	// OpenAPI documents).
	r := s.KubectlFails(t, "create", "--validate=strict", "-f", WriteManifest(t, `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: typo
spec:
  cronSpec: "* * * * *"
  colour: red
`))
	WantContains(t, r.Stderr, `unknown field "spec.colour"`)
	WantField(t, s.GetJSON(t, "get", "crontab", "nightly"), "busybox", "spec", "image")

	s.Expect(t, "crontab.stable.example.com/nightly patched", "patch", "ct", "nightly", "--type=merge", "-p", `{"spec":{"replicas":3}}`)
	s.Expect(t, "crontab.stable.example.com/nightly patched", "patch", "ct", "nightly", "--type=json", "-p", `[{"op":"replace","path":"/spec/image","value":"alpine"}]`)
	cr := s.GetJSON(t, "get", "ct", "nightly")
	WantField(t, cr, float64(3), "spec", "replicas")
	WantField(t, cr, "alpine", "spec", "image")

	r = s.KubectlFails(t, "patch", "ct", "nightly", "--type=merge", "-p", `{"spec":{"replicas":0}}`)
	WantContains(t, r.Stderr, "spec.replicas", "should be greater than or equal to 1")
	r = s.KubectlFails(t, "patch", "ct", "nightly", "--type=merge", "-p", `{"spec":{"replicas":20}}`)
	WantContains(t, r.Stderr, `The CronTab "nightly" is invalid: spec.replicas: Invalid value: 20: spec.replicas in body should be less than or equal to 10`)
	// A strategic merge patch (kubectl patch's default) needs a Go type:
	// the server answers 415 and kubectl names the types it takes.
	r = s.KubectlFails(t, "patch", "ct", "nightly", "-p", `{"spec":{"replicas":4}}`)
	WantContains(t, r.Stderr, "application/strategic-merge-patch+json is not supported by stable.example.com/v1, Kind=CronTab",
		"application/merge-patch+json")

	s.Expect(t, "crontab.stable.example.com/nightly scaled", "scale", "ct", "nightly", "--replicas=5")
	var scale map[string]any
	if err := json.Unmarshal([]byte(s.MustKubectl(t, "get", "--raw", "/apis/stable.example.com/v1/namespaces/default/crontabs/nightly/scale")), &scale); err != nil {
		t.Fatal(err)
	}
	WantField(t, scale, "Scale", "kind")
	WantField(t, scale, float64(5), "spec", "replicas")
	WantField(t, s.GetJSON(t, "get", "ct", "nightly"), float64(5), "spec", "replicas")

	weekly := `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: weekly
spec:
  cronSpec: "0 4 * * 0"
  replicas: %d
`
	s.Expect(t, "crontab.stable.example.com/weekly serverside-applied", "apply", "--server-side", "-f", WriteManifest(t, fmt.Sprintf(weekly, 1)))
	s.Expect(t, "crontab.stable.example.com/weekly serverside-applied", "apply", "--server-side", "-f", WriteManifest(t, fmt.Sprintf(weekly, 3)))
	WantField(t, s.GetJSON(t, "get", "ct", "weekly"), float64(3), "spec", "replicas")
	s.Expect(t, `crontab.stable.example.com "weekly" deleted`, "delete", "ct", "weekly")

	// The short name resolves in the canonical group only (the upstream
	// alias carries none), so kubectl warns of no ambiguity.
	s.Expect(t, `customresourcedefinition.apiextensions.platform.io "crontabs.stable.example.com" deleted`, "delete", "crd", "crontabs.stable.example.com")
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
