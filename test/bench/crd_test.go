package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"platform.io/platform/test/integration/framework"
)

// crdWrites and crdLists size BenchmarkCustomResources (per side);
// crdListClients is the concurrency of its lists.
const (
	crdWrites      = 3000
	crdLists       = 30
	crdListClients = 4
)

// crdSpecSchema is the spec of the benchmark's custom resource, shaped as
// an operator's: nested objects (a pod-template-like subtree), enums,
// patterns, a default, bounds, and (with rules) two CEL rules.
func crdSpecSchema(rules bool) map[string]any {
	str := func(extra map[string]any) map[string]any {
		m := map[string]any{"type": "string"}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	port := map[string]any{"type": "object", "required": []string{"containerPort"}, "properties": map[string]any{
		"name":          str(map[string]any{"maxLength": 15, "pattern": "^[a-z0-9-]+$"}),
		"containerPort": map[string]any{"type": "integer", "minimum": 1, "maximum": 65535},
		"protocol":      str(map[string]any{"enum": []string{"TCP", "UDP", "SCTP"}, "default": "TCP"}),
	}}
	env := map[string]any{"type": "object", "required": []string{"name"}, "properties": map[string]any{
		"name": str(map[string]any{"maxLength": 253}), "value": str(map[string]any{"maxLength": 4096}),
	}}
	quantities := map[string]any{"type": "object", "additionalProperties": str(map[string]any{"maxLength": 32})}
	container := map[string]any{"type": "object", "required": []string{"name", "image"}, "properties": map[string]any{
		"name":            str(map[string]any{"maxLength": 63, "pattern": "^[a-z]([-a-z0-9]*[a-z0-9])?$"}),
		"image":           str(map[string]any{"maxLength": 512, "pattern": "^[a-z0-9./:@_-]+$"}),
		"imagePullPolicy": str(map[string]any{"enum": []string{"Always", "IfNotPresent", "Never"}}),
		"args":            map[string]any{"type": "array", "maxItems": 32, "items": str(map[string]any{"maxLength": 1024})},
		"ports":           map[string]any{"type": "array", "maxItems": 16, "items": port},
		"env":             map[string]any{"type": "array", "maxItems": 64, "items": env},
		"resources": map[string]any{"type": "object", "properties": map[string]any{
			"limits": quantities, "requests": quantities}},
	}}
	labels := map[string]any{"type": "object", "maxProperties": 32, "additionalProperties": str(map[string]any{"maxLength": 63})}
	spec := map[string]any{"type": "object", "required": []string{"replicas", "template"}, "properties": map[string]any{
		"replicas":    map[string]any{"type": "integer", "minimum": 0, "maximum": 1000},
		"minReplicas": map[string]any{"type": "integer", "minimum": 0, "default": 1},
		"strategy":    str(map[string]any{"enum": []string{"RollingUpdate", "Recreate"}, "default": "RollingUpdate"}),
		"selector":    labels,
		"template": map[string]any{"type": "object", "properties": map[string]any{
			"metadata": map[string]any{"type": "object", "properties": map[string]any{"labels": labels, "annotations": labels}},
			"spec": map[string]any{"type": "object", "required": []string{"containers"}, "properties": map[string]any{
				"serviceAccountName": str(map[string]any{"maxLength": 253}),
				"containers":         map[string]any{"type": "array", "minItems": 1, "maxItems": 8, "items": container},
			}},
		}},
	}}
	if rules {
		spec["x-kubernetes-validations"] = []any{
			map[string]any{"rule": "self.minReplicas <= self.replicas", "message": "minReplicas must not exceed replicas"},
			map[string]any{"rule": "self.template.spec.containers.all(c, !has(c.ports) || c.ports.all(p, p.containerPort != 22))",
				"message": "port 22 is not allowed"},
		}
	}
	return spec
}

// benchCRD is a definition of plural in bench.example.com: schema "none"
// keeps every field (no validation), "schema" is crdSpecSchema without
// rules, "rules" with them.
func benchCRD(plural, kind, schema string) map[string]any {
	s := map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true}
	if schema != "none" {
		s = map[string]any{"type": "object", "properties": map[string]any{
			"spec":   crdSpecSchema(schema == "rules"),
			"status": map[string]any{"type": "object", "properties": map[string]any{"readyReplicas": map[string]any{"type": "integer"}}},
		}}
	}
	return map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": plural + ".bench.example.com"},
		"spec": map[string]any{"group": "bench.example.com", "scope": "Namespaced",
			"names":    map[string]any{"plural": plural, "kind": kind},
			"versions": []any{map[string]any{"name": "v1", "served": true, "storage": true, "schema": map[string]any{"openAPIV3Schema": s}}}},
	}
}

// benchAppSpec is a spec of crdSpecSchema of the usual size: two
// containers with ports, environment and resources.
func benchAppSpec() map[string]any {
	container := func(name, image string, port int) map[string]any {
		var env []any
		for i := range 6 {
			env = append(env, map[string]any{"name": fmt.Sprintf("SETTING_%d", i), "value": fmt.Sprintf("value-%d-%s", i, strings.Repeat("v", 24))})
		}
		return map[string]any{"name": name, "image": image, "imagePullPolicy": "IfNotPresent",
			"args":      []any{"--port", fmt.Sprint(port), "--log-level", "info"},
			"ports":     []any{map[string]any{"name": "http", "containerPort": port}, map[string]any{"name": "metrics", "containerPort": 9090, "protocol": "TCP"}},
			"env":       env,
			"resources": map[string]any{"limits": map[string]any{"cpu": "500m", "memory": "256Mi"}, "requests": map[string]any{"cpu": "100m", "memory": "128Mi"}}}
	}
	labels := map[string]any{"app": "bench", "tier": "web", "team": "platform"}
	return map[string]any{"replicas": 3, "selector": labels,
		"template": map[string]any{"metadata": map[string]any{"labels": labels, "annotations": map[string]any{"example.com/revision": "42"}},
			"spec": map[string]any{"serviceAccountName": "bench", "containers": []any{
				container("web", "registry.example.com/team/web:1.2.3", 8080), container("proxy", "registry.example.com/team/proxy:2.0.1", 15001)}}}}
}

// crdSide is one kind of object of BenchmarkCustomResources: its
// collection and the body of object i.
type crdSide struct {
	name string
	url  string
	body func(i int) []byte
}

// BenchmarkCustomResources compares custom resources with ConfigMaps of
// about the same JSON size (issue 19), on one in-process server in the
// same run: creates at 64 clients (the concurrency of the other write
// benchmarks), then full lists of the 3,000 objects of each side at 4
// clients. All sides send and receive JSON (custom objects have no
// protobuf form) through the same HTTP client. The custom sides differ
// in their schema: "cr-no-schema" keeps every field (no pruning,
// defaulting or validation), "cr-schema" has the operator-like schema of
// crdSpecSchema, "cr-schema-cel" that and two CEL rules. The aim of issue
// 19: "cr-schema-cel" creates at 70% of the ConfigMaps' rate or better.
// PLATFORM_BENCH_SIDES (comma-separated names) keeps only the named
// custom sides besides the ConfigMaps, for a CPU profile of one path.
func BenchmarkCustomResources(b *testing.B) {
	s := startServer(b)
	client := manyConnClient(admissionClients)
	post(b, client, s.URL+"/api/v1/namespaces", map[string]any{"metadata": map[string]any{"name": "crd-bench"}})
	kinds := []struct{ plural, kind, schema string }{
		{"plainapps", "PlainApp", "none"}, {"schemaapps", "SchemaApp", "schema"}, {"ruleapps", "RuleApp", "rules"},
	}
	var sides []crdSide
	var crSize int
	for _, k := range kinds {
		post(b, client, s.URL+"/apis/apiextensions.k8s.io/v1/customresourcedefinitions", benchCRD(k.plural, k.kind, k.schema))
		url := s.URL + "/apis/bench.example.com/v1/namespaces/crd-bench/" + k.plural
		framework.Eventually(b, 30*time.Second, k.plural+" served", func() bool {
			r, err := client.Get(url + "?limit=1")
			if err != nil {
				return false
			}
			r.Body.Close()
			return r.StatusCode == http.StatusOK
		})
		body := numbered(b, map[string]any{"apiVersion": "bench.example.com/v1", "kind": k.kind,
			"metadata": map[string]any{"name": fmt.Sprintf(nameFormat, 0), "labels": map[string]any{"app": "bench"}}, "spec": benchAppSpec()})
		crSize = len(body(0))
		sides = append(sides, crdSide{name: "cr-" + map[string]string{"none": "no-schema", "schema": "schema", "rules": "schema-cel"}[k.schema], url: url, body: body})
	}
	cm := map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": fmt.Sprintf(nameFormat, 0), "labels": map[string]any{"app": "bench"}}, "data": map[string]any{"config": ""}}
	pad := crSize - len(mustMarshal(b, cm))
	cm["data"] = map[string]any{"config": strings.Repeat("c", max(pad, 0))}
	cmBody := numbered(b, cm)
	sides = append([]crdSide{{name: "configmap", url: s.URL + "/api/v1/namespaces/crd-bench/configmaps", body: cmBody}}, sides...)
	fmt.Printf("custom resources: bodies of %d bytes (ConfigMap %d)\n\n", crSize, len(cmBody(0)))

	if list := os.Getenv(envSides); list != "" {
		keep := strings.Split(list, ",")
		sides = slices.DeleteFunc(sides, func(sd crdSide) bool { return sd.name != "configmap" && !slices.Contains(keep, sd.name) })
	}
	var writes, lists []writeSide
	for _, sd := range sides {
		writes = append(writes, writeSide{name: sd.name, write: func(lo, hi int) result {
			return run(admissionClients, hi-lo, scenarioLimit, func(ctx context.Context, j int) error {
				return do(ctx, client, http.MethodPost, sd.url, sd.body(lo+j), http.StatusCreated)
			})
		}})
		lists = append(lists, writeSide{name: sd.name, write: func(lo, hi int) result {
			return run(crdListClients, hi-lo, scenarioLimit, func(ctx context.Context, _ int) error {
				return do(ctx, client, http.MethodGet, sd.url, nil, http.StatusOK)
			})
		}})
	}
	cpu := compareWrites(b, fmt.Sprintf("custom resources, creates at %d clients, JSON", admissionClients), crdWrites, writes)
	compareOps(b, fmt.Sprintf("custom resources, lists of %d objects at %d clients, JSON", crdWrites*b.N, crdListClients), "list", crdLists, lists)
	if _, ok := cpu["cr-schema-cel"]; ok {
		b.ReportMetric(cpu.cpuRatio("cr-schema-cel", "configmap"), "cel-vs-configmap-cpu-ratio")
	}
}

// nameFormat names the objects of BenchmarkCustomResources.
const nameFormat = "app-%06d"

// numbered returns the body of object i: obj, named nameFormat of 0,
// encoded once, with the number written into a copy, so that the client
// spends the same little on every side's bodies.
func numbered(b *testing.B, obj map[string]any) func(i int) []byte {
	tmpl := mustMarshal(b, obj)
	at := bytes.Index(tmpl, []byte(fmt.Sprintf(nameFormat, 0))) + len("app-")
	return func(i int) []byte {
		out := bytes.Clone(tmpl)
		copy(out[at:at+6], fmt.Sprintf("%06d", i))
		return out
	}
}

// do sends one request and checks its status, reading the whole body.
func do(ctx context.Context, c *http.Client, method, url string, body []byte, want int) error {
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != want {
		return fmt.Errorf("%s %s: HTTP %d: %.300s", method, url, resp.StatusCode, got)
	}
	return nil
}

func post(b *testing.B, c *http.Client, url string, obj any) {
	b.Helper()
	if err := do(context.Background(), c, http.MethodPost, url, mustMarshal(b, obj), http.StatusCreated); err != nil {
		b.Fatal(err)
	}
}

func mustMarshal(b *testing.B, v any) []byte {
	b.Helper()
	out, err := json.Marshal(v)
	if err != nil {
		b.Fatal(err)
	}
	return out
}
