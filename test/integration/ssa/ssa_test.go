package ssa

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"

	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/test/integration/framework"
)

const deployments = "/apis/apps/v1/namespaces/default/deployments"

var (
	applyYAML = framework.Header{"Content-Type": "application/apply-patch+yaml"}
	mergeJSON = framework.Header{"Content-Type": "application/merge-patch+json"}
)

func agent(name string) framework.Header {
	return framework.Header{"User-Agent": name + "/v1.0.0 (linux/amd64)"}
}

func both(a, b framework.Header) framework.Header {
	out := framework.Header{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// entry is one managedFields entry as served.
type entry struct {
	Manager     string          `json:"manager"`
	Operation   string          `json:"operation"`
	APIVersion  string          `json:"apiVersion"`
	Time        string          `json:"time"`
	FieldsType  string          `json:"fieldsType"`
	FieldsV1    json.RawMessage `json:"fieldsV1"`
	Subresource string          `json:"subresource"`
}

type object struct {
	Metadata struct {
		ManagedFields   []entry           `json:"managedFields"`
		ResourceVersion string            `json:"resourceVersion"`
		Annotations     map[string]string `json:"annotations"`
	} `json:"metadata"`
	Spec struct {
		Replicas *int `json:"replicas"`
		Template struct {
			Spec struct {
				Containers []struct {
					Name  string `json:"name"`
					Image string `json:"image"`
				} `json:"containers"`
			} `json:"spec"`
		} `json:"template"`
	} `json:"spec"`
	Status struct {
		Replicas int `json:"replicas"`
	} `json:"status"`
}

func decode(t *testing.T, r framework.Response) object {
	t.Helper()
	var o object
	r.Into(t, &o)
	return o
}

// managers lists "manager/operation[/subresource]" of each entry.
func managers(o object) []string {
	var out []string
	for _, e := range o.Metadata.ManagedFields {
		k := e.Manager + "/" + e.Operation
		if e.Subresource != "" {
			k += "/" + e.Subresource
		}
		if e.FieldsType != "FieldsV1" || e.APIVersion == "" || e.Time == "" || len(e.FieldsV1) == 0 {
			k += "(incomplete)"
		}
		out = append(out, k)
	}
	return out
}

// wantManagers compares the entries as a set: entries of one second sort
// by manager name, so the order says little.
func wantManagers(t *testing.T, o object, want ...string) {
	t.Helper()
	got := managers(o)
	sort.Strings(got)
	want = append([]string(nil), want...)
	sort.Strings(want)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("managedFields managers = %q, want %q", got, strings.Join(want, " "))
	}
}

func deploymentYAML(name string, replicas int, image string) string {
	return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ` + name + `
spec:
  replicas: ` + string(rune('0'+replicas)) + `
  selector:
    matchLabels: {app: ` + name + `}
  template:
    metadata:
      labels: {app: ` + name + `}
    spec:
      containers:
      - name: app
        image: ` + image + `
`
}

// TestEveryWriteKeepsManagedFields: create, update, each patch type and
// apply each leave an entry for their manager and operation.
func TestEveryWriteKeepsManagedFields(t *testing.T) {
	s := framework.Start(t)
	const cms = "/api/v1/namespaces/default/configmaps"
	o := decode(t, s.Do(t, "POST", cms, `{"metadata":{"name":"c"},"data":{"a":"1"}}`, agent("creator")).Expect(t, http.StatusCreated))
	wantManagers(t, o, "creator/Update")
	cur := s.Do(t, "GET", cms+"/c", nil).Expect(t, http.StatusOK).Map(t)
	cur["data"].(map[string]any)["b"] = "2"
	o = decode(t, s.Do(t, "PUT", cms+"/c", cur, agent("replacer")).Expect(t, http.StatusOK))
	wantManagers(t, o, "creator/Update", "replacer/Update")
	o = decode(t, s.Do(t, "PATCH", cms+"/c", `{"data":{"c":"3"}}`, both(mergeJSON, agent("merger"))).Expect(t, http.StatusOK))
	o = decode(t, s.Do(t, "PATCH", cms+"/c", `{"data":{"d":"4"}}`, both(framework.Header{"Content-Type": "application/strategic-merge-patch+json"}, agent("strategic"))).Expect(t, http.StatusOK))
	o = decode(t, s.Do(t, "PATCH", cms+"/c", `[{"op":"add","path":"/data/e","value":"5"}]`, both(framework.Header{"Content-Type": "application/json-patch+json"}, agent("jsonpatch"))).Expect(t, http.StatusOK))
	o = decode(t, s.Do(t, "PATCH", cms+"/c?fieldManager=applier", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {f: '6'}\n", applyYAML).Expect(t, http.StatusOK))
	wantManagers(t, o, "applier/Apply", "creator/Update", "replacer/Update", "merger/Update", "strategic/Update", "jsonpatch/Update")
	// The fieldManager parameter names an update's manager over the User-Agent.
	o = decode(t, s.Do(t, "PATCH", cms+"/c?fieldManager=named", `{"data":{"g":"7"}}`, both(mergeJSON, agent("ignored"))).Expect(t, http.StatusOK))
	if got := managers(o); !slices.Contains(got, "named/Update") || slices.Contains(got, "ignored/Update") {
		t.Fatalf("managers %v, want named/Update and no ignored/Update", got)
	}
	// A no-op write keeps the object (and its resourceVersion) as it was.
	again := decode(t, s.Do(t, "PATCH", cms+"/c", `{"data":{"g":"7"}}`, both(mergeJSON, agent("noop"))).Expect(t, http.StatusOK))
	if again.Metadata.ResourceVersion != o.Metadata.ResourceVersion {
		t.Fatalf("no-op patch changed resourceVersion %s -> %s", o.Metadata.ResourceVersion, again.Metadata.ResourceVersion)
	}
	// An empty managedFields list clears them.
	o = decode(t, s.Do(t, "PATCH", cms+"/c", `{"metadata":{"managedFields":[{}]}}`, both(mergeJSON, agent("resetter"))).Expect(t, http.StatusOK))
	wantManagers(t, o)
}

// TestApply: create by apply, re-apply, a change, a second manager's
// conflict answered 409 with a cause per field, force, and removal.
func TestApply(t *testing.T) {
	s := framework.Start(t)
	path := deployments + "/web?fieldManager=alice"
	r := s.Do(t, "PATCH", path, deploymentYAML("web", 1, "nginx:1"), applyYAML).Expect(t, http.StatusCreated)
	o := decode(t, r)
	wantManagers(t, o, "alice/Apply")
	rv := o.Metadata.ResourceVersion
	o = decode(t, s.Do(t, "PATCH", path, deploymentYAML("web", 1, "nginx:1"), applyYAML).Expect(t, http.StatusOK))
	if o.Metadata.ResourceVersion != rv {
		t.Fatalf("re-applying the same configuration wrote: rv %s -> %s", rv, o.Metadata.ResourceVersion)
	}
	o = decode(t, s.Do(t, "PATCH", path, deploymentYAML("web", 2, "nginx:2"), applyYAML).Expect(t, http.StatusOK))
	if *o.Spec.Replicas != 2 || o.Spec.Template.Spec.Containers[0].Image != "nginx:2" {
		t.Fatalf("changed apply not stored: %+v", o.Spec)
	}
	// bob updates the replicas by a merge patch, then alice's apply conflicts.
	s.Do(t, "PATCH", deployments+"/web", `{"spec":{"replicas":3}}`, both(mergeJSON, agent("bob"))).Expect(t, http.StatusOK)
	st := s.Do(t, "PATCH", path, deploymentYAML("web", 4, "nginx:2"), applyYAML).ExpectStatus(t, http.StatusConflict, "Conflict")
	causes := st["details"].(map[string]any)["causes"].([]any)
	if len(causes) != 1 {
		t.Fatalf("causes %v, want one", causes)
	}
	c := causes[0].(map[string]any)
	if c["field"] != ".spec.replicas" || c["reason"] != "FieldManagerConflict" || !strings.Contains(c["message"].(string), `"bob"`) {
		t.Fatalf("cause %v", c)
	}
	if !strings.HasPrefix(st["message"].(string), "Apply failed with 1 conflict: conflict with \"bob\"") {
		t.Fatalf("message %q", st["message"])
	}
	// force takes ownership.
	o = decode(t, s.Do(t, "PATCH", path+"&force=true", deploymentYAML("web", 4, "nginx:2"), applyYAML).Expect(t, http.StatusOK))
	if *o.Spec.Replicas != 4 {
		t.Fatalf("forced apply: replicas %d", *o.Spec.Replicas)
	}
	// Dropping replicas from the configuration removes the field (then defaulted).
	cfg := strings.Replace(deploymentYAML("web", 4, "nginx:2"), "  replicas: 4\n", "", 1)
	o = decode(t, s.Do(t, "PATCH", path, cfg, applyYAML).Expect(t, http.StatusOK))
	if o.Spec.Replicas == nil || *o.Spec.Replicas != 1 {
		t.Fatalf("replicas after removal: %v, want the default 1", o.Spec.Replicas)
	}
	// Apply needs a field manager; force belongs to apply only.
	s.Do(t, "PATCH", deployments+"/web", cfg, applyYAML).ExpectStatus(t, http.StatusUnprocessableEntity, "Invalid")
	s.Do(t, "PATCH", deployments+"/web?force=true", `{}`, mergeJSON).ExpectStatus(t, http.StatusUnprocessableEntity, "Invalid")
}

// TestApplyDryRun: a dry-run apply answers the object and stores nothing.
func TestApplyDryRun(t *testing.T) {
	s := framework.Start(t)
	path := deployments + "/dry?fieldManager=alice&dryRun=All"
	o := decode(t, s.Do(t, "PATCH", path, deploymentYAML("dry", 1, "nginx:1"), applyYAML).Expect(t, http.StatusCreated))
	wantManagers(t, o, "alice/Apply")
	s.Do(t, "GET", deployments+"/dry", nil).Expect(t, http.StatusNotFound)
	s.Do(t, "PATCH", deployments+"/dry?fieldManager=alice", deploymentYAML("dry", 1, "nginx:1"), applyYAML).Expect(t, http.StatusCreated)
	o = decode(t, s.Do(t, "PATCH", path, deploymentYAML("dry", 3, "nginx:1"), applyYAML).Expect(t, http.StatusOK))
	if *o.Spec.Replicas != 3 {
		t.Fatalf("dry-run answer replicas %d", *o.Spec.Replicas)
	}
	o = decode(t, s.Do(t, "GET", deployments+"/dry", nil).Expect(t, http.StatusOK))
	if *o.Spec.Replicas != 1 {
		t.Fatalf("dry-run apply stored replicas %d", *o.Spec.Replicas)
	}
}

// TestStatusSubresource: apply and update through /status are recorded
// with the subresource and own only status.
func TestStatusSubresource(t *testing.T) {
	s := framework.Start(t)
	s.Do(t, "PATCH", deployments+"/st?fieldManager=alice", deploymentYAML("st", 1, "nginx:1"), applyYAML).Expect(t, http.StatusCreated)
	status := "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: st}\nstatus: {replicas: 5}\nspec: {replicas: 7}\n"
	o := decode(t, s.Do(t, "PATCH", deployments+"/st/status?fieldManager=ctl", status, applyYAML).Expect(t, http.StatusOK))
	if o.Status.Replicas != 5 || *o.Spec.Replicas != 1 {
		t.Fatalf("status apply: status.replicas %d spec.replicas %d", o.Status.Replicas, *o.Spec.Replicas)
	}
	wantManagers(t, o, "alice/Apply", "ctl/Apply/status")
	for _, e := range o.Metadata.ManagedFields {
		if e.Subresource == "status" && strings.Contains(string(e.FieldsV1), "spec") {
			t.Fatalf("status applier owns spec: %s", e.FieldsV1)
		}
	}
	// An update of another status field through /status adds its manager.
	o = decode(t, s.Do(t, "PATCH", deployments+"/st/status", `{"status":{"readyReplicas":1}}`, both(mergeJSON, agent("kubelet"))).Expect(t, http.StatusOK))
	wantManagers(t, o, "alice/Apply", "ctl/Apply/status", "kubelet/Update/status")
	// An update that changes the applier's field takes it over.
	o = decode(t, s.Do(t, "PATCH", deployments+"/st/status", `{"status":{"replicas":6}}`, both(mergeJSON, agent("kubelet"))).Expect(t, http.StatusOK))
	wantManagers(t, o, "alice/Apply", "kubelet/Update/status")
	// A status apply to an object that does not exist is a 404, not a create.
	s.Do(t, "PATCH", deployments+"/none/status?fieldManager=ctl", strings.Replace(status, "name: st", "name: none", 1), applyYAML).Expect(t, http.StatusNotFound)
}

// TestScaleSubresource: a write through /scale is recorded under its subresource.
func TestScaleSubresource(t *testing.T) {
	s := framework.Start(t)
	s.Do(t, "PATCH", deployments+"/sc?fieldManager=alice", deploymentYAML("sc", 1, "nginx:1"), applyYAML).Expect(t, http.StatusCreated)
	s.Do(t, "PATCH", deployments+"/sc/scale", `{"spec":{"replicas":3}}`, both(mergeJSON, agent("autoscaler"))).Expect(t, http.StatusOK)
	o := decode(t, s.Do(t, "GET", deployments+"/sc", nil).Expect(t, http.StatusOK))
	wantManagers(t, o, "alice/Apply", "autoscaler/Update/scale")
	// alice's next apply of replicas conflicts with the autoscaler.
	s.Do(t, "PATCH", deployments+"/sc?fieldManager=alice", deploymentYAML("sc", 2, "nginx:1"), applyYAML).ExpectStatus(t, http.StatusConflict, "Conflict")
}

// scalable is a kind with a scale subresource and a configuration of it
// with replicas 1 that alice applies.
type scalable struct {
	path, kind, extra string
}

func (k scalable) yaml(name string) string {
	return `apiVersion: apps/v1
kind: ` + k.kind + `
metadata:
  name: ` + name + `
spec:
  replicas: 1` + k.extra + `
  selector:
    matchLabels: {app: ` + name + `}
  template:
    metadata:
      labels: {app: ` + name + `}
    spec:
      containers:
      - name: app
        image: nginx:1
`
}

func scaleYAML(name string, replicas int) string {
	return "apiVersion: autoscaling/v1\nkind: Scale\nmetadata: {name: " + name + "}\nspec: {replicas: " + string(rune('0'+replicas)) + "}\n"
}

// fieldsOf returns the fieldsV1 of the entry of manager and operation.
func fieldsOf(t *testing.T, o object, manager, operation string) entry {
	t.Helper()
	for _, e := range o.Metadata.ManagedFields {
		if e.Manager == manager && e.Operation == operation {
			return e
		}
	}
	t.Fatalf("no %s/%s entry in %v", manager, operation, managers(o))
	return entry{}
}

// TestScaleApply: apply through /scale of each scalable kind conflicts
// with the owner of the object's spec.replicas, takes it with force (not
// on a dry run), and is kept on the object as an entry of subresource
// scale owning spec.replicas, which the object's own appliers then
// conflict with.
func TestScaleApply(t *testing.T) {
	s := framework.Start(t)
	kinds := []scalable{
		{path: deployments, kind: "Deployment"},
		{path: "/apis/apps/v1/namespaces/default/replicasets", kind: "ReplicaSet"},
		{path: "/apis/apps/v1/namespaces/default/statefulsets", kind: "StatefulSet", extra: "\n  serviceName: web"},
	}
	for _, k := range kinds {
		t.Run(k.kind, func(t *testing.T) {
			obj, scale := k.path+"/web", k.path+"/web/scale"
			s.Do(t, "PATCH", obj+"?fieldManager=alice", k.yaml("web"), applyYAML).Expect(t, http.StatusCreated)

			// Applying the value alice has shares the field without a conflict.
			sc := s.Do(t, "PATCH", scale+"?fieldManager=hpa", scaleYAML("web", 1), applyYAML).Expect(t, http.StatusOK).Map(t)
			if sc["kind"] != "Scale" {
				t.Fatalf("scale apply answered %v", sc)
			}
			o := decode(t, s.Do(t, "GET", obj, nil).Expect(t, http.StatusOK))
			wantManagers(t, o, "alice/Apply", "hpa/Apply/scale")

			// Another value conflicts with alice, who owns spec.replicas.
			st := s.Do(t, "PATCH", scale+"?fieldManager=ctl", scaleYAML("web", 3), applyYAML).ExpectStatus(t, http.StatusConflict, "Conflict")
			causes := st["details"].(map[string]any)["causes"].([]any)
			var fields []string
			for _, c := range causes {
				c := c.(map[string]any)
				if c["reason"] != "FieldManagerConflict" || c["field"] != ".spec.replicas" {
					t.Fatalf("cause %v", c)
				}
				fields = append(fields, c["message"].(string))
			}
			sort.Strings(fields)
			if strings.Join(fields, ";") != `conflict with "alice";conflict with "hpa" with subresource "scale"` {
				t.Fatalf("conflict causes %q", fields)
			}

			// A forced dry run answers the new Scale and stores nothing.
			sc = s.Do(t, "PATCH", scale+"?fieldManager=ctl&force=true&dryRun=All", scaleYAML("web", 3), applyYAML).Expect(t, http.StatusOK).Map(t)
			if got := sc["spec"].(map[string]any)["replicas"]; got != float64(3) {
				t.Fatalf("dry-run scale apply answered replicas %v", got)
			}
			o = decode(t, s.Do(t, "GET", obj, nil).Expect(t, http.StatusOK))
			if *o.Spec.Replicas != 1 {
				t.Fatalf("dry-run scale apply stored replicas %d", *o.Spec.Replicas)
			}
			wantManagers(t, o, "alice/Apply", "hpa/Apply/scale")

			// force takes spec.replicas from alice and hpa.
			s.Do(t, "PATCH", scale+"?fieldManager=ctl&force=true", scaleYAML("web", 3), applyYAML).Expect(t, http.StatusOK)
			o = decode(t, s.Do(t, "GET", obj, nil).Expect(t, http.StatusOK))
			if *o.Spec.Replicas != 3 {
				t.Fatalf("forced scale apply: replicas %d", *o.Spec.Replicas)
			}
			wantManagers(t, o, "alice/Apply", "ctl/Apply/scale")
			ctl := fieldsOf(t, o, "ctl", "Apply")
			if string(ctl.FieldsV1) != `{"f:spec":{"f:replicas":{}}}` || ctl.APIVersion != "apps/v1" || ctl.Subresource != "scale" {
				t.Fatalf("scale applier's entry %+v fields %s", ctl, ctl.FieldsV1)
			}
			if alice := fieldsOf(t, o, "alice", "Apply"); strings.Contains(string(alice.FieldsV1), "f:replicas") {
				t.Fatalf("alice still owns replicas: %s", alice.FieldsV1)
			}

			// alice's apply of replicas now conflicts with the scale applier.
			st = s.Do(t, "PATCH", obj+"?fieldManager=alice", k.yaml("web"), applyYAML).ExpectStatus(t, http.StatusConflict, "Conflict")
			if !strings.Contains(st["message"].(string), `conflict with "ctl" with subresource "scale": .spec.replicas`) {
				t.Fatalf("message %q", st["message"])
			}
			// The scale applier changes its value without a conflict.
			s.Do(t, "PATCH", scale+"?fieldManager=ctl", scaleYAML("web", 5), applyYAML).Expect(t, http.StatusOK)
			o = decode(t, s.Do(t, "GET", obj, nil).Expect(t, http.StatusOK))
			if *o.Spec.Replicas != 5 {
				t.Fatalf("scale re-apply: replicas %d", *o.Spec.Replicas)
			}
		})
	}
	// What apply on /scale refuses: a missing object, another kind, no
	// field manager, a name other than the URL's.
	s.Do(t, "PATCH", deployments+"/none/scale?fieldManager=ctl", scaleYAML("none", 2), applyYAML).Expect(t, http.StatusNotFound)
	s.Do(t, "PATCH", deployments+"/web/scale?fieldManager=ctl", deploymentYAML("web", 2, "nginx:1"), applyYAML).ExpectStatus(t, http.StatusBadRequest, "BadRequest")
	s.Do(t, "PATCH", deployments+"/web/scale", scaleYAML("web", 2), applyYAML).ExpectStatus(t, http.StatusUnprocessableEntity, "Invalid")
	s.Do(t, "PATCH", deployments+"/web/scale?fieldManager=ctl", scaleYAML("other", 2), applyYAML).ExpectStatus(t, http.StatusBadRequest, "BadRequest")
}

// TestGateOff: with ServerSideApply off, apply is a 415 and writes keep
// no managedFields.
func TestGateOff(t *testing.T) {
	s := framework.Start(t, func(o *options.Options) {
		if err := o.Features.Set("ServerSideApply=false"); err != nil {
			t.Fatal(err)
		}
	})
	s.Do(t, "PATCH", deployments+"/off?fieldManager=alice", deploymentYAML("off", 1, "nginx:1"), applyYAML).Expect(t, http.StatusUnsupportedMediaType)
	o := decode(t, s.Do(t, "POST", "/api/v1/namespaces/default/configmaps", `{"metadata":{"name":"c"},"data":{"a":"1"}}`, agent("creator")).Expect(t, http.StatusCreated))
	wantManagers(t, o)
}

// TestPatchManagedFieldsAside: a patch that cannot name managedFields
// (which the server then keeps out of the patch) records the same
// managedFields as one that names them (which goes through the patch with
// the object), for each patch type.
func TestPatchManagedFieldsAside(t *testing.T) {
	s := framework.Start(t)
	const cms = "/api/v1/namespaces/default/configmaps"
	jsonPatch := framework.Header{"Content-Type": "application/json-patch+json"}
	strategic := framework.Header{"Content-Type": "application/strategic-merge-patch+json"}
	tests := []struct {
		name           string
		aside, through string
		header         framework.Header
	}{
		{"json patch", `[{"op":"add","path":"/data/b","value":"2"}]`,
			`[{"op":"test","path":"/metadata/managedFields/0/manager","value":"creator"},{"op":"add","path":"/data/b","value":"2"}]`, jsonPatch},
		{"merge patch", `{"data":{"b":"2"}}`, `{"metadata":{"managedFields":null},"data":{"b":"2"}}`, mergeJSON},
		{"strategic merge patch", `{"data":{"b":"2"}}`, `{"metadata":{"managedFields":null},"data":{"b":"2"}}`, strategic},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got [2][]string
			for j, body := range []string{tt.aside, tt.through} {
				name := fmt.Sprintf("c%d-%d", i, j)
				s.Do(t, "POST", cms, `{"metadata":{"name":"`+name+`","labels":{"l":"v"}},"data":{"a":"1"}}`, agent("creator")).Expect(t, http.StatusCreated)
				o := decode(t, s.Do(t, "PATCH", cms+"/"+name, body, both(tt.header, agent("patcher"))).Expect(t, http.StatusOK))
				for _, e := range o.Metadata.ManagedFields {
					got[j] = append(got[j], e.Manager+"/"+e.Operation+" "+string(e.FieldsV1))
				}
			}
			if strings.Join(got[0], "\n") != strings.Join(got[1], "\n") || len(got[0]) != 2 {
				t.Fatalf("patch with managedFields aside recorded\n%s\nthrough the patch\n%s", strings.Join(got[0], "\n"), strings.Join(got[1], "\n"))
			}
		})
	}
}
