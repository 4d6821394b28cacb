package openapi

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http/httptest"
	"net/url"
	"slices"
	"testing"

	openapiv2 "github.com/google/gnostic-models/openapiv2"
	openapiv3 "github.com/google/gnostic-models/openapiv3"
	"google.golang.org/protobuf/proto"

	"platform.io/platform/pkg/apiserver/registry"
)

const (
	crontabKey  = "apis/stable.example.com/v1"
	crontabDef  = "com.example.stable.v1.CronTab"
	crontabItem = "/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}"
)

func crontabVersion(t testing.TB, schema string) CustomVersion {
	return CustomVersion{
		Row: &registry.Resource{Group: "stable.example.com", Version: "v1", Name: "crontabs", Singular: "crontab",
			Kind: "CronTab", Namespaced: true, Custom: true, HasStatus: true, Scale: &registry.ScaleAccessor{}},
		Schema: parseSchema(t, schema),
	}
}

// TestCustomDocuments publishes a custom resource, changes it and
// withdraws it, reading the documents through the handler each time.
func TestCustomDocuments(t *testing.T) {
	s, err := Build(rows(), Info{Title: "Platform", Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	_, v2Before := fetch(t, srv, "GET", "/openapi/v2")
	indexBefore := indexOf(t, srv)
	if _, ok := indexBefore[crontabKey]; ok {
		t.Fatal("the index lists the custom group version before it is published")
	}
	if resp, _ := fetch(t, srv, "GET", "/openapi/v3/"+crontabKey); resp.StatusCode != 404 {
		t.Fatalf("unpublished document: %d", resp.StatusCode)
	}

	const owner = "crontabs.stable.example.com"
	if err := s.SetCustom(owner, []CustomVersion{crontabVersion(t,
		`{"type":"object","properties":{"spec":{"type":"object","properties":{"cronSpec":{"type":"string"}}}}}`)}); err != nil {
		t.Fatal(err)
	}
	doc := v3Of(t, srv)
	schemas := get(t, doc, "components", "schemas")
	crontab := get(t, schemas, crontabDef)
	if !schemaHasKind(schemas, crontabKey, "CronTab") || !schemaHasKind(schemas, crontabKey, "CronTabList") {
		t.Error("no schema with the kind or its list")
	}
	get(t, crontab, "properties", "spec", "properties", "cronSpec")
	for _, name := range []string{metaDef("ObjectMeta"), metaDef("ListMeta"), metaDef("Status"), metaDef("DeleteOptions"), scaleDef} {
		get(t, schemas, name)
	}
	paths := get(t, doc, "paths")
	for _, p := range []string{"/apis/stable.example.com/v1/namespaces/{namespace}/crontabs", crontabItem,
		crontabItem + "/status", crontabItem + "/scale", "/apis/stable.example.com/v1/crontabs", "/apis/stable.example.com/v1/"} {
		get(t, paths, p)
	}
	patch := get(t, paths, crontabItem, "patch")
	if patch["operationId"] != "patchStableExampleComV1NamespacedCronTab" {
		t.Errorf("patch operationId %v", patch["operationId"])
	}
	if content := get(t, patch, "requestBody", "content"); content[mimeStrategicMerge] != nil || content[mimeMergePatch] == nil {
		t.Errorf("custom resources' patch takes %v; kubectl would send them a strategic merge patch", slices.Sorted(maps.Keys(content)))
	}

	v2 := decode(t, mustFetch(t, srv, "/openapi/v2"))
	get(t, v2, "definitions", crontabDef, "properties", "spec")
	get(t, v2, "paths", crontabItem+"/scale")
	if _, ok := get(t, decode(t, v2Before), "definitions")[crontabDef]; ok {
		t.Fatal("the built-in document was changed")
	}
	resp, pb := fetch(t, srv, "GET", "/openapi/v2", "Accept: "+mimeV2ProtoDeprecated)
	var back openapiv2.Document
	if resp.StatusCode != 200 || proto.Unmarshal(pb, &back) != nil {
		t.Fatalf("v2 protobuf: %d", resp.StatusCode)
	}
	// The protobuf form (the built-in one with the custom parts appended)
	// says what the JSON says.
	names := map[string]bool{}
	for _, d := range back.GetDefinitions().GetAdditionalProperties() {
		names[d.Name] = true
	}
	if jsonDefs := get(t, v2, "definitions"); len(names) != len(jsonDefs) || len(back.GetDefinitions().GetAdditionalProperties()) != len(jsonDefs) ||
		!names[crontabDef] || !names[metaDef("ObjectMeta")] || back.Swagger != "2.0" || back.GetInfo().GetTitle() != "Platform" {
		t.Errorf("v2 protobuf: %d definitions (%d names), JSON %d; swagger %q, info %v", len(back.GetDefinitions().GetAdditionalProperties()), len(names), len(jsonDefs), back.Swagger, back.GetInfo())
	}
	if n, want := len(back.GetPaths().GetPath()), len(get(t, v2, "paths")); n != want {
		t.Errorf("v2 protobuf: %d paths, JSON %d", n, want)
	}
	var v2Spec *openapiv2.Schema
	for _, d := range back.GetDefinitions().GetAdditionalProperties() {
		if d.Name == crontabDef {
			for _, p := range d.GetValue().GetProperties().GetAdditionalProperties() {
				if p.Name == "spec" {
					v2Spec = p.GetValue()
				}
			}
		}
	}
	if v2Spec == nil || len(v2Spec.GetProperties().GetAdditionalProperties()) != 1 {
		t.Errorf("v2 protobuf: CronTab spec is %v", v2Spec)
	}
	merged := decode(t, s.mergeV2([][]byte{[]byte(`{"definitions":{"io.example.wardle.v1.Flunder":{"type":"object"}}}`)}).json)
	if defs := get(t, merged, "definitions"); defs[crontabDef] == nil || defs["io.example.wardle.v1.Flunder"] == nil {
		t.Error("with an aggregated server's document, the custom resources' definitions are lost")
	}

	// A changed schema: a new document under a new hash.
	first := indexOf(t, srv)[crontabKey]
	if err := s.SetCustom(owner, []CustomVersion{crontabVersion(t,
		`{"type":"object","properties":{"spec":{"type":"object","properties":{"image":{"type":"string"}}}}}`)}); err != nil {
		t.Fatal(err)
	}
	if again := indexOf(t, srv)[crontabKey]; again == first {
		t.Errorf("the index names the same document after the schema changed: %s", again)
	}
	spec := get(t, v3Of(t, srv), "components", "schemas", crontabDef, "properties", "spec", "properties")
	if spec["image"] == nil || spec["cronSpec"] != nil {
		t.Errorf("after the change, spec has %v", slices.Sorted(maps.Keys(spec)))
	}

	s.RemoveCustom(owner)
	if _, ok := indexOf(t, srv)[crontabKey]; ok {
		t.Error("the index lists the withdrawn group version")
	}
	if resp, _ := fetch(t, srv, "GET", "/openapi/v3/"+crontabKey); resp.StatusCode != 404 {
		t.Errorf("withdrawn document: %d", resp.StatusCode)
	}
	if _, v2After := fetch(t, srv, "GET", "/openapi/v2"); string(v2After) != string(v2Before) {
		t.Error("the v2 document still differs from the built-in one")
	}
}

// indexOf returns the /openapi/v3 index's serverRelativeURLs by key.
func indexOf(t *testing.T, srv *httptest.Server) map[string]string {
	t.Helper()
	var index struct {
		Paths map[string]struct {
			URL string `json:"serverRelativeURL"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(mustFetch(t, srv, "/openapi/v3"), &index); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for k, v := range index.Paths {
		out[k] = v.URL
	}
	return out
}

// v3Of fetches the CronTab group version's document through the index's
// URL, checking gnostic parses it.
func v3Of(t *testing.T, srv *httptest.Server) obj {
	t.Helper()
	u, ok := indexOf(t, srv)[crontabKey]
	if !ok {
		t.Fatal("the index does not list the custom group version")
	}
	if parsed, err := url.Parse(u); err != nil || parsed.Query().Get("hash") == "" {
		t.Fatalf("index URL %q has no hash", u)
	}
	data := mustFetch(t, srv, u)
	if _, err := openapiv3.ParseDocument(data); err != nil {
		t.Fatalf("gnostic rejects the custom document: %v", err)
	}
	return decode(t, data)
}

func mustFetch(t *testing.T, srv *httptest.Server, path string) []byte {
	t.Helper()
	resp, body := fetch(t, srv, "GET", path)
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d %s", path, resp.StatusCode, body)
	}
	return body
}

// TestCustomDocumentsParse publishes a definition per feature of the
// conversion tests and checks that gnostic parses the documents, as
// kubectl's protobuf requests need.
func TestCustomDocumentsParse(t *testing.T) {
	s, err := Build(rows(), Info{Title: "Platform", Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	for i, schema := range []string{schemaNullable, schemaPreserveNested, schemaPreserveRoot, schemaIntOrString, schemaJunctors, schemaKeywords, schemaEmbedded} {
		v := crontabVersion(t, schema)
		v.Row.Kind, v.Row.Name = fmt.Sprintf("Kind%d", i), fmt.Sprintf("kinds%d", i)
		if err := s.SetCustom(v.Row.Name+".stable.example.com", []CustomVersion{v}); err != nil {
			t.Fatal(err)
		}
	}
	v2 := s.mergeV2(nil)
	if v2 == s.v2 {
		t.Fatal("the merged document is the built-in one: the custom parts were refused")
	}
	if _, err := v2.proto.get(); err != nil {
		t.Errorf("v2: %v", err)
	}
	doc, err := s.customV3(crontabKey)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := doc.proto.get(); err != nil {
		t.Errorf("v3: %v", err)
	}
	if n := len(get(t, decode(t, doc.json), "components", "schemas")); n < 14 {
		t.Errorf("v3 has %d schemas, want the 7 kinds, their lists and the meta kinds", n)
	}
}

// BenchmarkCustomChange measures what a change of a definition costs the
// next readers: the merged v2 document (with its protobuf form) and the
// group version's v3 document, rendered again.
func BenchmarkCustomChange(b *testing.B) {
	s, err := Build(rows(), Info{Title: "Platform", Version: "test"})
	if err != nil {
		b.Fatal(err)
	}
	v := crontabVersion(b, schemaKeywords)
	b.ResetTimer()
	for range b.N {
		if err := s.SetCustom("crontabs.stable.example.com", []CustomVersion{v}); err != nil {
			b.Fatal(err)
		}
		if _, err := s.mergeV2(nil).proto.get(); err != nil {
			b.Fatal(err)
		}
		if _, err := s.customV3(crontabKey); err != nil {
			b.Fatal(err)
		}
	}
}
