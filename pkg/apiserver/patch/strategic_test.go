package patch

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

var podType = reflect.TypeOf(tPod{})

type smpCase struct {
	name     string
	original string
	patch    string
	want     string // expected document; ignored when wantErr is set
	wantErr  string // substring of the expected ErrInvalidPatch message
}

// basePod is the original used when a case leaves original empty.
const basePod = `{
  "kind": "Pod", "apiVersion": "v1",
  "metadata": {"name": "web", "labels": {"app": "web", "tier": "front"},
               "finalizers": ["a", "b"]},
  "spec": {
    "containers": [
      {"name": "app", "image": "nginx:1.24",
       "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}],
       "ports": [{"containerPort": 80}, {"containerPort": 443}]},
      {"name": "sidecar", "image": "envoy:1"}
    ],
    "tolerations": [{"key": "k1", "effect": "NoSchedule"}],
    "nodeSelector": {"disk": "ssd", "zone": "a"}
  }
}`

// withPod returns basePod with the JSON values at the given top-level
// paths ("spec.containers") replaced, which keeps expectations short.
func withPod(t *testing.T, edits map[string]string) string {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal([]byte(basePod), &doc); err != nil {
		t.Fatal(err)
	}
	for path, raw := range edits {
		parts := strings.Split(path, ".")
		m := doc
		for _, p := range parts[:len(parts)-1] {
			m = m[p].(map[string]any)
		}
		last := parts[len(parts)-1]
		if raw == "" {
			delete(m, last)
			continue
		}
		var v any
		if err := json.Unmarshal([]byte(raw), &v); err != nil {
			t.Fatalf("edit %s: %v", path, err)
		}
		m[last] = v
	}
	out, _ := json.Marshal(doc)
	return string(out)
}

func runSMPCases(t *testing.T, cases []smpCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			orig := c.original
			if orig == "" {
				orig = basePod
			}
			got, err := Apply(StrategicMerge, []byte(orig), []byte(c.patch), podType)
			if c.wantErr != "" {
				if !errors.Is(err, ErrInvalidPatch) || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("want ErrInvalidPatch containing %q, got %v (result %s)", c.wantErr, err, got)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			assertJSONEqual(t, got, c.want)
		})
	}
}

func assertJSONEqual(t *testing.T, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("result is not JSON: %v: %s", err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad expectation: %v: %s", err, want)
	}
	if !reflect.DeepEqual(g, w) {
		t.Fatalf("mismatch\n got: %s\nwant: %s", got, want)
	}
}

func TestStrategicMergeMaps(t *testing.T) {
	runSMPCases(t, []smpCase{
		{name: "empty patch changes nothing", patch: `{}`, want: basePod},
		{name: "maps merge recursively",
			patch: `{"spec":{"nodeSelector":{"gpu":"yes","zone":"b"}}}`,
			want:  withPod(t, map[string]string{"spec.nodeSelector": `{"disk":"ssd","zone":"b","gpu":"yes"}`})},
		{name: "null removes a label",
			patch: `{"metadata":{"labels":{"tier":null}}}`,
			want:  withPod(t, map[string]string{"metadata.labels": `{"app":"web"}`})},
		{name: "null for an absent key is a no-op and never stored",
			patch: `{"metadata":{"annotations":{"x":null,"y":"1"}}}`,
			want:  withPod(t, map[string]string{"metadata.annotations": `{"y":"1"}`})},
		{name: "null removes a whole field",
			patch: `{"spec":{"tolerations":null}}`,
			want:  withPod(t, map[string]string{"spec.tolerations": ""})},
		{name: "$patch replace on a map",
			patch: `{"spec":{"nodeSelector":{"$patch":"replace","gpu":"yes"}}}`,
			want:  withPod(t, map[string]string{"spec.nodeSelector": `{"gpu":"yes"}`})},
		{name: "$patch delete on a map removes it",
			patch: `{"spec":{"nodeSelector":{"$patch":"delete","x":"y"}}}`,
			want:  withPod(t, map[string]string{"spec.nodeSelector": ""})},
		{name: "$patch delete at the root empties the object",
			patch: `{"$patch":"delete"}`,
			want:  `{}`},
		{name: "$patch merge on a map merges",
			patch: `{"spec":{"nodeSelector":{"$patch":"merge","gpu":"yes"}}}`,
			want:  withPod(t, map[string]string{"spec.nodeSelector": `{"disk":"ssd","zone":"a","gpu":"yes"}`})},
		{name: "$patch replace at the root",
			patch: `{"$patch":"replace","kind":"Pod"}`,
			want:  `{"kind":"Pod"}`},
		{name: "patchStrategy replace on a struct field replaces it",
			original: `{"spec":{"affinity":{"zone":"a","rules":{"x":"1"}}}}`,
			patch:    `{"spec":{"affinity":{"rules":{"y":"2"}}}}`,
			want:     `{"spec":{"affinity":{"rules":{"y":"2"}}}}`},
		{name: "scalar replaces map and map replaces scalar",
			original: `{"spec":{"hostname":{"a":1},"nodeSelector":"x"}}`,
			patch:    `{"spec":{"hostname":"h","nodeSelector":{"a":"b","c":null}}}`,
			want:     `{"spec":{"hostname":"h","nodeSelector":{"a":"b"}}}`},
		{name: "$retainKeys clears unlisted keys",
			original: `{"spec":{"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"1"}}}}`,
			patch:    `{"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate"}}}`,
			want:     `{"spec":{"strategy":{"type":"Recreate"}}}`},
		{name: "$retainKeys allows null for unlisted keys",
			original: `{"spec":{"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"1"}}}}`,
			patch:    `{"spec":{"strategy":{"$retainKeys":["type"],"rollingUpdate":null}}}`,
			want:     `{"spec":{"strategy":{"type":"RollingUpdate"}}}`},
		{name: "unknown fields merge as plain maps and lists are replaced",
			original: `{"other":{"a":1,"list":[1,2],"objs":[{"name":"x","v":1}]}}`,
			patch:    `{"other":{"b":2,"list":[3],"objs":[{"name":"x","w":2}]}}`,
			want:     `{"other":{"a":1,"b":2,"list":[3],"objs":[{"name":"x","w":2}]}}`},
		{name: "self-marshaling types are scalars",
			original: `{"metadata":{"creationTimestamp":"2020-01-01T00:00:00Z"},"extra":{"a":{"b":1}}}`,
			patch:    `{"metadata":{"creationTimestamp":"2021-01-01T00:00:00Z"},"extra":{"a":{"c":2}}}`,
			want:     `{"metadata":{"creationTimestamp":"2021-01-01T00:00:00Z"},"extra":{"a":{"b":1,"c":2}}}`},
		{name: "inline type meta and promoted fields",
			original: `{"kind":"Pod","spec":{"hostname":"a","gates":["g1"]}}`,
			patch:    `{"kind":"Other","spec":{"hostname":"b","gates":["g1","g2"]}}`,
			want:     `{"kind":"Other","spec":{"hostname":"b","gates":["g1","g2"]}}`},
		{name: "other dollar keys are data",
			original: `{"other":{"$ref":"a"}}`,
			patch:    `{"other":{"$schema":"s"}}`,
			want:     `{"other":{"$ref":"a","$schema":"s"}}`},
		{name: "large numbers are kept verbatim",
			original: `{"n":12345678901234567890}`,
			patch:    `{"m":1.50}`,
			want:     `{"n":12345678901234567890,"m":1.50}`},
		{name: "directives in values new to the original are stripped",
			original: `{"kind":"Pod"}`,
			patch: `{"metadata":{"$setElementOrder/ownerReferences":[{"uid":"u1"}],` +
				`"ownerReferences":[{"uid":"u1","kind":"RS"},{"uid":"u0","$patch":"delete"}],` +
				`"labels":{"$patch":"replace","a":"b","c":null},"$retainKeys":["ownerReferences","labels"]}}`,
			want: `{"kind":"Pod","metadata":{"ownerReferences":[{"uid":"u1","kind":"RS"}],"labels":{"a":"b"}}}`},
	})
}

func TestStrategicMergeLists(t *testing.T) {
	runSMPCases(t, []smpCase{
		{name: "kubectl apply: annotation and image update with $setElementOrder",
			patch: `{"metadata":{"annotations":{"a":"b"}},"spec":{"$setElementOrder/containers":` +
				`[{"name":"app"},{"name":"sidecar"}],"containers":[{"image":"nginx:1.25","name":"app"}]}}`,
			want: withPod(t, map[string]string{
				"metadata.annotations": `{"a":"b"}`,
				"spec.containers": `[{"name":"app","image":"nginx:1.25",` +
					`"env":[{"name":"A","value":"1"},{"name":"B","value":"2"}],` +
					`"ports":[{"containerPort":80},{"containerPort":443}]},{"name":"sidecar","image":"envoy:1"}]`,
			})},
		{name: "kubectl apply: order list naming a single container",
			original: `{"spec":{"containers":[{"name":"app","image":"nginx:1.24"}]}}`,
			patch: `{"metadata":{"annotations":{"a":"b"}},"spec":{"$setElementOrder/containers":[{"name":"app"}],` +
				`"containers":[{"image":"nginx:1.25","name":"app"}]}}`,
			want: `{"metadata":{"annotations":{"a":"b"}},"spec":{"containers":[{"name":"app","image":"nginx:1.25"}]}}`},
		{name: "add a container in the order given",
			patch: `{"spec":{"$setElementOrder/containers":[{"name":"app"},{"name":"log"},{"name":"sidecar"}],` +
				`"containers":[{"name":"log","image":"busybox"}]}}`,
			want: withPod(t, map[string]string{"spec.containers": `[{"name":"app","image":"nginx:1.24",` +
				`"env":[{"name":"A","value":"1"},{"name":"B","value":"2"}],` +
				`"ports":[{"containerPort":80},{"containerPort":443}]},` +
				`{"name":"log","image":"busybox"},{"name":"sidecar","image":"envoy:1"}]`})},
		{name: "new element without order list goes first (upstream)",
			original: `{"spec":{"containers":[{"name":"a"},{"name":"b"}]}}`,
			patch:    `{"spec":{"containers":[{"name":"c","image":"x"}]}}`,
			want:     `{"spec":{"containers":[{"name":"c","image":"x"},{"name":"a"},{"name":"b"}]}}`},
		{name: "delete a container with $patch delete",
			patch: `{"spec":{"$setElementOrder/containers":[{"name":"app"}],` +
				`"containers":[{"name":"sidecar","$patch":"delete"}]}}`,
			want: withPod(t, map[string]string{"spec.containers": `[{"name":"app","image":"nginx:1.24",` +
				`"env":[{"name":"A","value":"1"},{"name":"B","value":"2"}],` +
				`"ports":[{"containerPort":80},{"containerPort":443}]}]`})},
		{name: "delete removes every duplicate",
			original: `{"spec":{"containers":[{"name":"a"},{"name":"a"},{"name":"b"}]}}`,
			patch:    `{"spec":{"containers":[{"name":"a","$patch":"delete"}]}}`,
			want:     `{"spec":{"containers":[{"name":"b"}]}}`},
		{name: "nested env merged by name, ports by number key",
			original: `{"spec":{"containers":[{"name":"app","env":[{"name":"A","value":"1"}],` +
				`"ports":[{"containerPort":80},{"containerPort":443}]}]}}`,
			patch: `{"spec":{"containers":[{"name":"app","env":[{"name":"A","value":"9"},{"name":"C","value":"3"}],` +
				`"ports":[{"containerPort":443,"protocol":"TCP"}]}]}}`,
			want: `{"spec":{"containers":[{"name":"app","env":[{"name":"A","value":"9"},{"name":"C","value":"3"}],` +
				`"ports":[{"containerPort":80},{"containerPort":443,"protocol":"TCP"}]}]}}`},
		{name: "null inside a merged element removes the field",
			original: `{"spec":{"containers":[{"name":"app","image":"x","args":["a"]}]}}`,
			patch:    `{"spec":{"containers":[{"name":"app","args":null}]}}`,
			want:     `{"spec":{"containers":[{"name":"app","image":"x"}]}}`},
	})
}

func TestStrategicMergeListDirectives(t *testing.T) {
	runSMPCases(t, []smpCase{
		{name: "$patch replace element replaces the list",
			patch: `{"spec":{"containers":[{"name":"only","image":"x"},{"$patch":"replace"}]}}`,
			want:  withPod(t, map[string]string{"spec.containers": `[{"name":"only","image":"x"}]`})},
		{name: "$patch replace alone empties the list",
			patch: `{"spec":{"containers":[{"$patch":"replace"}]}}`,
			want:  withPod(t, map[string]string{"spec.containers": `[]`})},
		{name: "bare $patch merge element is ignored",
			original: `{"spec":{"containers":[{"name":"a"}]}}`,
			patch:    `{"spec":{"containers":[{"$patch":"merge"},{"name":"a","image":"i","$patch":"merge"}]}}`,
			want:     `{"spec":{"containers":[{"name":"a","image":"i"}]}}`},
		{name: "empty patch list leaves a merged list alone",
			patch: `{"spec":{"containers":[]}}`,
			want:  basePod},
		{name: "lists without merge strategy are replaced",
			patch: `{"spec":{"tolerations":[{"key":"k2"}]}}`,
			want:  withPod(t, map[string]string{"spec.tolerations": `[{"key":"k2"}]`})},
		{name: "replaced lists drop directive-only and deleted elements",
			patch: `{"spec":{"tolerations":[{"key":"k2","$patch":"delete"},{"$patch":"replace"},{"key":"k3","x":null}]}}`,
			want:  withPod(t, map[string]string{"spec.tolerations": `[{"key":"k3"}]`})},
		{name: "list of lists is replaced",
			original: `{"spec":{"matrix":[["a"]]}}`,
			patch:    `{"spec":{"matrix":[["b"],["c"]]}}`,
			want:     `{"spec":{"matrix":[["b"],["c"]]}}`},
		{name: "missing merge key tolerated when the original has no list",
			original: `{"spec":{}}`,
			patch:    `{"spec":{"containers":[{"image":"x"}]}}`,
			want:     `{"spec":{"containers":[{"image":"x"}]}}`},
		{name: "$retainKeys inside merged list elements",
			original: `{"spec":{"volumes":[{"name":"v","emptyDir":{}}]}}`,
			patch:    `{"spec":{"volumes":[{"name":"v","$retainKeys":["name","hostPath"],"hostPath":{"path":"/x"}}]}}`,
			want:     `{"spec":{"volumes":[{"name":"v","hostPath":{"path":"/x"}}]}}`},
		{name: "pointer to struct with merge list",
			original: `{"status":{"conditions":[{"type":"Ready","status":"False"},{"type":"Init","status":"True"}]}}`,
			patch:    `{"status":{"conditions":[{"type":"Ready","status":"True"}]}}`,
			want:     `{"status":{"conditions":[{"type":"Ready","status":"True"},{"type":"Init","status":"True"}]}}`},
		{name: "order preserved from patch (upstream example)",
			original: `{"spec":{"containers":[{"name":"1"},{"name":"2","image":"b"},{"name":"3"}]}}`,
			patch:    `{"spec":{"containers":[{"name":"3","image":"c"},{"name":"1","image":"a"}]}}`,
			want:     `{"spec":{"containers":[{"name":"2","image":"b"},{"name":"3","image":"c"},{"name":"1","image":"a"}]}}`},
	})
}

func TestStrategicMergePrimitiveLists(t *testing.T) {
	fin := func(v string) string { return withPod(t, map[string]string{"metadata.finalizers": v}) }
	runSMPCases(t, []smpCase{
		{name: "union keeps original order then new values",
			patch: `{"metadata":{"finalizers":["b","c"]}}`, want: fin(`["a","b","c"]`)},
		{name: "new value without order list goes first (upstream)",
			patch: `{"metadata":{"finalizers":["c"]}}`, want: fin(`["c","a","b"]`)},
		{name: "duplicates are dropped",
			patch: `{"metadata":{"finalizers":["a","a","b"]}}`, want: fin(`["a","b"]`)},
		{name: "patch order wins for values it names (upstream)",
			original: `{"metadata":{"finalizers":["1","2","3"]}}`,
			patch:    `{"metadata":{"finalizers":["3","1"]}}`,
			want:     `{"metadata":{"finalizers":["2","3","1"]}}`},
		{name: "$deleteFromPrimitiveList removes values",
			patch: `{"metadata":{"$deleteFromPrimitiveList/finalizers":["a","zz"]}}`, want: fin(`["b"]`)},
		{name: "$deleteFromPrimitiveList on a missing list is a no-op",
			original: `{"metadata":{}}`,
			patch:    `{"metadata":{"$deleteFromPrimitiveList/finalizers":["a"]}}`,
			want:     `{"metadata":{}}`},
		{name: "kubectl apply: order, delete and add together",
			original: `{"metadata":{"finalizers":["1","2","3","3","4"]}}`,
			patch: `{"metadata":{"$setElementOrder/finalizers":["1","2","5"],` +
				`"$deleteFromPrimitiveList/finalizers":["3"],"finalizers":["5"]}}`,
			want: `{"metadata":{"finalizers":["1","2","5","4"]}}`},
		{name: "add and delete items (upstream example)",
			original: `{"metadata":{"finalizers":["1","2","3","4"]}}`,
			patch: `{"metadata":{"$setElementOrder/finalizers":["1","2","4"],` +
				`"$deleteFromPrimitiveList/finalizers":["3"],"finalizers":["4"]}}`,
			want: `{"metadata":{"finalizers":["1","2","4"]}}`},
		{name: "design-doc finalizer example as upstream code orders it",
			original: `{"metadata":{"finalizers":["b","e","a","c","d"]}}`,
			patch: `{"metadata":{"$setElementOrder/finalizers":["a","b","f"],` +
				`"$deleteFromPrimitiveList/finalizers":["c"],"finalizers":["f"]}}`,
			want: `{"metadata":{"finalizers":["e","a","b","f","d"]}}`},
		{name: "$setElementOrder alone reorders",
			original: `{"metadata":{"finalizers":["b","a"]}}`,
			patch:    `{"metadata":{"$setElementOrder/finalizers":["a","b"]}}`,
			want:     `{"metadata":{"finalizers":["a","b"]}}`},
		{name: "$setElementOrder naming absent values ignores them",
			original: `{"metadata":{"finalizers":["1","3"]}}`,
			patch:    `{"metadata":{"$setElementOrder/finalizers":["3","2","1"]}}`,
			want:     `{"metadata":{"finalizers":["3","1"]}}`},
		{name: "$setElementOrder for a list only the patch has",
			original: `{"metadata":{}}`,
			patch:    `{"metadata":{"$setElementOrder/finalizers":["x","y"],"finalizers":["x","y"]}}`,
			want:     `{"metadata":{"finalizers":["x","y"]}}`},
		{name: "$setElementOrder for a list nobody has is a no-op",
			original: `{"metadata":{}}`,
			patch:    `{"metadata":{"$setElementOrder/finalizers":["x"]}}`,
			want:     `{"metadata":{}}`},
	})
}

func TestStrategicMergeElementOrder(t *testing.T) {
	names := func(ns ...string) string {
		parts := make([]string, len(ns))
		for i, n := range ns {
			parts[i] = `{"name":"` + n + `"}`
		}
		return `{"spec":{"containers":[` + strings.Join(parts, ",") + `]}}`
	}
	runSMPCases(t, []smpCase{
		{name: "reorder without changes",
			original: names("B", "A"),
			patch:    `{"spec":{"$setElementOrder/containers":[{"name":"A"},{"name":"B"}]}}`,
			want:     names("A", "B")},
		{name: "server-only items interleave by live position (upstream code)",
			original: names("C", "B", "D", "A", "E"),
			patch: `{"spec":{"$setElementOrder/containers":[{"name":"A"},{"name":"B"}],` +
				`"containers":[{"name":"A"},{"name":"B"}]}}`,
			want: names("C", "D", "A", "B", "E")},
		{name: "design-doc env example",
			original: names("ENV2", "ENV5", "ENV1", "ENV3", "ENV4"),
			patch: `{"spec":{"$setElementOrder/containers":[{"name":"ENV1"},{"name":"ENV2"},{"name":"ENV6"}],` +
				`"containers":[{"name":"ENV3","$patch":"delete"},{"name":"ENV6"}]}}`,
			want: names("ENV5", "ENV1", "ENV2", "ENV6", "ENV4")},
		{name: "new items placed as the order list says",
			original: names("1", "2"),
			patch: `{"spec":{"$setElementOrder/containers":[{"name":"4"},{"name":"1"},{"name":"2"},{"name":"3"}],` +
				`"containers":[{"name":"4"},{"name":"3"}]}}`,
			want: names("4", "1", "2", "3")},
		{name: "order list must agree with the patch list",
			original: names("1", "3", "2"),
			patch: `{"spec":{"$setElementOrder/containers":[{"name":"1"},{"name":"2"},{"name":"3"}],` +
				`"containers":[{"name":"3"},{"name":"1"}]}}`,
			wantErr: "does not match the order"},
		{name: "patch items must be in the order list",
			original: names("1"),
			patch:    `{"spec":{"$setElementOrder/containers":[{"name":"1"}],"containers":[{"name":"2"}]}}`,
			wantErr:  "does not match the order"},
		{name: "order entries need the merge key",
			original: names("1"),
			patch:    `{"spec":{"$setElementOrder/containers":[{"image":"1"}]}}`,
			wantErr:  "merge key name"},
		{name: "order list must be a list",
			original: names("1"),
			patch:    `{"spec":{"$setElementOrder/containers":{"name":"1"}}}`,
			wantErr:  "must be a list"},
		{name: "ordered field must be a list in the patch",
			original: names("1"),
			patch:    `{"spec":{"$setElementOrder/containers":[{"name":"1"}],"containers":null}}`,
			wantErr:  "must be a list when"},
		{name: "unknown field ordered by value",
			original: `{"x":["b","a","c"]}`,
			patch:    `{"$setElementOrder/x":["a","b"]}`,
			want:     `{"x":["a","b","c"]}`},
	})
}

func TestStrategicMergeInvalid(t *testing.T) {
	runSMPCases(t, []smpCase{
		{name: "not JSON", patch: `{"spec":`, wantErr: "not valid JSON"},
		{name: "garbage", patch: `hello`, wantErr: "not valid JSON"},
		{name: "trailing data", patch: `{} {}`, wantErr: "after the JSON value"},
		{name: "array body", patch: `[{"op":"add"}]`, wantErr: "not an array"},
		{name: "null body", patch: `null`, wantErr: "not null"},
		{name: "unknown $patch on a map",
			patch: `{"spec":{"nodeSelector":{"$patch":"explode"}}}`, wantErr: "unknown $patch value explode"},
		{name: "unknown $patch in a merged list",
			patch: `{"spec":{"containers":[{"name":"app","$patch":"explode"}]}}`, wantErr: "unknown $patch"},
		{name: "unknown $patch in a replaced list",
			patch: `{"spec":{"tolerations":[{"$patch":"explode"}]}}`, wantErr: "unknown $patch"},
		{name: "non-string $patch", patch: `{"$patch":1}`, wantErr: "unknown $patch"},
		{name: "merge key missing in a list element",
			patch: `{"spec":{"containers":[{"image":"x"}]}}`, wantErr: `no merge key "name"`},
		{name: "merge key missing even for an empty original list",
			original: `{"spec":{"containers":[]}}`,
			patch:    `{"spec":{"containers":[{"image":"x"}]}}`, wantErr: `no merge key "name"`},
		{name: "delete element without merge key",
			patch: `{"spec":{"containers":[{"$patch":"delete"}]}}`, wantErr: "element to delete has no merge key"},
		{name: "objects and scalars mixed",
			patch: `{"spec":{"containers":["app"]}}`, wantErr: "mixes objects and scalars"},
		{name: "lists of lists in a merged list",
			patch: `{"metadata":{"finalizers":[["x"]]}}`, wantErr: "lists of lists"},
		{name: "$retainKeys not a list",
			patch: `{"spec":{"$retainKeys":"containers"}}`, wantErr: "$retainKeys must be a list"},
		{name: "$retainKeys entry not a string",
			patch: `{"spec":{"$retainKeys":[1]}}`, wantErr: "entries must be strings"},
		{name: "$retainKeys missing a patched key",
			patch:   `{"spec":{"$retainKeys":["containers"],"nodeSelector":{"a":"b"}}}`,
			wantErr: `"nodeSelector" is set by the patch but missing`},
		{name: "$deleteFromPrimitiveList not a list",
			patch: `{"metadata":{"$deleteFromPrimitiveList/finalizers":"a"}}`, wantErr: "must be a list"},
		{name: "merge strategy without merge key on objects",
			original: `{"spec":{"gates":[{"a":1}]}}`,
			patch:    `{"spec":{"gates":[{"a":2}]}}`, wantErr: "no merge key"},
		{name: "error path names the element",
			patch:   `{"spec":{"containers":[{"name":"app","env":[{"value":"x"}]}]}}`,
			wantErr: "spec.containers[0].env[0]"},
	})
}

func TestStrategicMergeBadOriginal(t *testing.T) {
	for _, orig := range []string{`[]`, `nope`, `{"a":`, ``} {
		_, err := Apply(StrategicMerge, []byte(orig), []byte(`{}`), podType)
		if err == nil || errors.Is(err, ErrInvalidPatch) || errors.Is(err, ErrUnsupportedType) {
			t.Errorf("original %q: want an unclassified error, got %v", orig, err)
		}
	}
}

func TestStrategicMergeWithoutSchema(t *testing.T) {
	got, err := Apply(StrategicMerge, []byte(`{"a":{"b":[1,2]},"c":1}`),
		[]byte(`{"a":{"b":[3],"$patch":"merge"},"c":null}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	assertJSONEqual(t, got, `{"a":{"b":[3]}}`)
}

func TestStrategicMergeOutputIsCompactAndUnescaped(t *testing.T) {
	got, err := Apply(StrategicMerge, []byte(`{"a": "<b>"}`), []byte(`{"c":"&"}`), podType)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != `{"a":"<b>","c":"&"}` {
		t.Fatalf("got %s", got)
	}
}
