package openapi

import (
	"bytes"
	"crypto/sha512"
	"encoding/json"
	"fmt"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"testing"

	openapiv2 "github.com/google/gnostic-models/openapiv2"
	openapiv3 "github.com/google/gnostic-models/openapiv3"
	"google.golang.org/protobuf/proto"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/intstr"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/registry/builtin"
)

var (
	specOnce sync.Once
	testSpec *Spec
	specErr  error
)

func rows() []*registry.Resource { return builtin.Resources(builtin.Config{}) }

// built returns the spec of the built-in rows, built once for all tests.
func built(t *testing.T) *Spec {
	t.Helper()
	specOnce.Do(func() { testSpec, specErr = Build(rows(), Info{Title: "Platform", Version: "test"}) })
	if specErr != nil {
		t.Fatal(specErr)
	}
	return testSpec
}

// obj is a decoded JSON document, navigated with get.
type obj = map[string]any

func decode(t *testing.T, data []byte) obj {
	t.Helper()
	var m obj
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// get walks keys through nested objects, failing t when one is missing.
func get(t *testing.T, m obj, keys ...string) obj {
	t.Helper()
	for _, k := range keys {
		next, ok := m[k].(obj)
		if !ok {
			t.Fatalf("no object at %q of %v", k, keys)
		}
		m = next
	}
	return m
}

func TestV2ParsesWithGnosticAndMarshalsToProtobuf(t *testing.T) {
	s := built(t)
	doc, err := openapiv2.ParseDocument(s.v2.json)
	if err != nil {
		t.Fatal(err)
	}
	pb, err := proto.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	served, err := s.v2.proto.get()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(pb, served) {
		t.Error("served protobuf differs from the JSON document's")
	}
	var back openapiv2.Document
	if err := proto.Unmarshal(served, &back); err != nil {
		t.Fatal(err)
	}
	if back.Swagger != "2.0" || len(back.Definitions.AdditionalProperties) == 0 || len(back.Paths.Path) == 0 {
		t.Errorf("protobuf round trip lost the document: swagger %q", back.Swagger)
	}
}

func TestPodContainersCarryPatchExtensions(t *testing.T) {
	s := built(t)
	v2 := decode(t, s.v2.json)
	v3 := decode(t, s.v3["api/v1"].json)
	for name, defs := range map[string]obj{"v2": get(t, v2, "definitions"), "v3": get(t, v3, "components", "schemas")} {
		containers := get(t, defs, "io.platform.api.core.v1.PodSpec", "properties", "containers")
		if containers[extPatchStrategy] != "merge" || containers[extPatchMergeKey] != "name" {
			t.Errorf("%s: containers = %v, want patch strategy merge by name", name, containers)
		}
		volumes := get(t, defs, "io.platform.api.core.v1.PodSpec", "properties", "volumes")
		if volumes[extPatchStrategy] != "merge,retainKeys" {
			t.Errorf("%s: volumes patch strategy = %v", name, volumes[extPatchStrategy])
		}
		req := get(t, defs, "io.platform.api.core.v1.Container")["required"]
		if fmt.Sprint(req) != "[name]" {
			t.Errorf("%s: Container required = %v, want [name]", name, req)
		}
		if _, ok := get(t, defs, "io.platform.api.core.v1.Pod")["required"]; ok {
			t.Errorf("%s: Pod has required fields", name)
		}
	}
}

// TestEveryRowAcceptsFieldValidation checks what kubectl checks before it
// sends fieldValidation=Strict: a PATCH operation of the kind, in its group
// version's v3 document, with the query parameter, and strategic merge
// among the patch bodies. Create, replace and patch carry it in v2 too.
func TestEveryRowAcceptsFieldValidation(t *testing.T) {
	s := built(t)
	v2paths := get(t, decode(t, s.v2.json), "paths")
	for _, r := range rows() {
		coll, item := rowPaths(r)
		ops := map[string][]string{coll: {"post"}, item: {"put", "patch"}}
		if r.Virtual != nil {
			ops = map[string][]string{coll: {"post"}} // an operation: POST only
		}
		for path, methods := range ops {
			for _, m := range methods {
				op := get(t, v2paths, path, m)
				if !hasParam(op, "fieldValidation") || !hasParam(op, "dryRun") {
					t.Errorf("v2 %s %s lacks fieldValidation or dryRun", m, path)
				}
				if gvk := op[extGVK].(obj); gvk["kind"] != r.Kind || gvk["group"] != r.Group {
					t.Errorf("v2 %s %s: kind %v", m, path, gvk)
				}
			}
		}
		if r.Virtual != nil {
			continue // nothing to patch
		}
		doc := decode(t, s.v3[gvPath(r.GroupVersion())].json)
		if err := kubectlPatchCheck(doc, r.GroupVersionKind()); err != nil {
			t.Errorf("%s: %v", r.GroupResource(), err)
		}
	}
}

func rowPaths(r *registry.Resource) (coll, item string) {
	coll = "/" + gvPath(r.GroupVersion())
	if r.Namespaced {
		coll += "/namespaces/{namespace}"
	}
	coll += "/" + r.Name
	return coll, coll + "/{name}"
}

func hasParam(op obj, name string) bool {
	params, _ := op["parameters"].([]any)
	for _, p := range params {
		if p.(obj)["name"] == name && p.(obj)["in"] == "query" {
			return true
		}
	}
	return false
}

// kubectlPatchCheck fails unless every PATCH operation of gvk takes
// fieldValidation and a strategic merge patch body, and one exists.
func kubectlPatchCheck(doc obj, gvk meta.GroupVersionKind) error {
	found := false
	for path, item := range doc["paths"].(obj) {
		op, ok := item.(obj)["patch"].(obj)
		if !ok {
			continue
		}
		g := op[extGVK].(obj)
		if g["group"] != gvk.Group || g["version"] != gvk.Version || g["kind"] != gvk.Kind {
			continue
		}
		found = true
		if !hasParam(op, "fieldValidation") {
			return fmt.Errorf("PATCH %s has no fieldValidation", path)
		}
		body := op["requestBody"].(obj)["content"].(obj)
		if _, ok := body[mimeStrategicMerge]; !ok {
			return fmt.Errorf("PATCH %s does not take %s", path, mimeStrategicMerge)
		}
	}
	if !found {
		return fmt.Errorf("no PATCH operation of %v", gvk)
	}
	return nil
}

func TestV3DiscoveryAndDocuments(t *testing.T) {
	s := built(t)
	paths := get(t, decode(t, s.discovery.json), "paths")
	kinds := map[string][]string{}
	for _, r := range rows() {
		key := gvPath(r.GroupVersion())
		kinds[key] = append(kinds[key], r.Kind)
		if r.Virtual == nil {
			kinds[key] = append(kinds[key], r.Kind+"List")
		}
	}
	if len(paths) != len(kinds) {
		t.Errorf("discovery lists %d group versions, want %d", len(paths), len(kinds))
	}
	for key, want := range kinds {
		u, err := url.Parse(get(t, paths, key)["serverRelativeURL"].(string))
		if err != nil {
			t.Fatal(err)
		}
		data := s.v3[key].json
		if u.Path != "/openapi/v3/"+key || u.Query().Get("hash") != fmt.Sprintf("%X", sha512.Sum512(data)) {
			t.Errorf("%s: serverRelativeURL %s does not name the document's hash", key, u)
		}
		if _, err := openapiv3.ParseDocument(data); err != nil {
			t.Errorf("%s: gnostic rejects the v3 document: %v", key, err)
		}
		schemas := get(t, decode(t, data), "components", "schemas")
		for _, kind := range want {
			if !schemaHasKind(schemas, key, kind) {
				t.Errorf("%s: no schema with x-kubernetes-group-version-kind %s", key, kind)
			}
		}
		for name := range schemas {
			if !strings.HasPrefix(name, "io.platform.api.") {
				t.Errorf("%s: schema %s is not named after its package", key, name)
			}
		}
	}
}

func schemaHasKind(schemas obj, key, kind string) bool {
	for _, s := range schemas {
		list, _ := s.(obj)[extGVK].([]any)
		for _, g := range list {
			g := g.(obj)
			if g["kind"] == kind && gvPath(meta.GroupVersion{Group: g["group"].(string), Version: g["version"].(string)}) == key {
				return true
			}
		}
	}
	return false
}

func TestMetaKinds(t *testing.T) {
	defs := get(t, decode(t, built(t).v2.json), "definitions")
	status := get(t, defs, metaDef("Status"))[extGVK].([]any)
	if len(status) != 1 || status[0].(obj)["kind"] != "Status" {
		t.Errorf("Status kinds = %v", status)
	}
	for _, kind := range []string{"DeleteOptions", "WatchEvent"} {
		list := get(t, defs, metaDef(kind))[extGVK].([]any)
		seen := map[string]bool{}
		for _, g := range list {
			seen[g.(obj)["group"].(string)+"/"+g.(obj)["version"].(string)] = true
		}
		for _, r := range rows() {
			if !seen[r.Group+"/"+r.Version] {
				t.Errorf("%s lacks %s/%s", kind, r.Group, r.Version)
			}
		}
	}
}

func TestSchemasOfCustomTypes(t *testing.T) {
	d := newDefinitions()
	ios, err := d.use(reflect.TypeFor[intstr.IntOrString]())
	if err != nil {
		t.Fatal(err)
	}
	def := d.defs[ios.Ref]
	if v2 := def.v2(); v2["type"] != "string" || v2["format"] != "int-or-string" || v2["oneOf"] != nil {
		t.Errorf("IntOrString v2 = %v", v2)
	}
	if v3 := def.v3(); v3[extIntOrString] != true || v3["type"] != nil || len(v3["oneOf"].([]any)) != 2 {
		t.Errorf("IntOrString v3 = %v", v3)
	}
	if _, err := d.use(reflect.TypeFor[corev1.EphemeralContainer]()); err != nil {
		t.Fatal(err)
	}
	eph := d.defs["io.platform.api.core.v1.EphemeralContainer"]
	for _, f := range []string{"name", "image", "ports", "targetContainerName"} {
		if eph.Properties[f] == nil {
			t.Errorf("EphemeralContainer lacks the flattened field %s", f)
		}
	}
	if _, err := d.use(reflect.TypeFor[meta.WatchEvent]()); err != nil {
		t.Fatal(err)
	}
	if o := d.defs[metaDef("WatchEvent")].Properties["object"]; o.Ext[extPreserve] != true {
		t.Errorf("WatchEvent.object = %+v, want an open object", o)
	}
	if _, err := d.use(reflect.TypeFor[*meta.Time]()); err != nil {
		t.Fatal(err)
	}
	if tm := d.defs[metaDef("Time")]; tm.Type != "string" || tm.Format != "date-time" {
		t.Errorf("Time = %+v", tm)
	}
}

func TestBuildIsDeterministic(t *testing.T) {
	again, err := Build(rows(), Info{Title: "Platform", Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	s := built(t)
	if !bytes.Equal(again.v2.json, s.v2.json) || !bytes.Equal(again.discovery.json, s.discovery.json) {
		t.Error("two builds of the same rows differ")
	}
}

func TestBuildRejectsNonStructKinds(t *testing.T) {
	bad := &registry.Resource{Version: "v1", Name: "things", Kind: "Thing", New: func() meta.Object { return nil }}
	if _, err := Build([]*registry.Resource{bad}, Info{}); err == nil {
		t.Error("Build accepted a row whose New returns nil")
	}
}

func TestDefName(t *testing.T) {
	for typ, want := range map[reflect.Type]string{
		reflect.TypeFor[corev1.Pod]():         "io.platform.api.core.v1.Pod",
		reflect.TypeFor[meta.ObjectMeta]():    "io.platform.api.meta.v1.ObjectMeta",
		reflect.TypeFor[intstr.IntOrString](): "io.platform.api.intstr.IntOrString",
	} {
		if got := defName(typ); got != want {
			t.Errorf("defName(%v) = %s, want %s", typ, got, want)
		}
	}
}
