package crd

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"platform.io/client/api/jsontree"

	"platform.io/platform/pkg/apiserver/crd/structural"
	"platform.io/platform/test/integration/framework"
)

// Builders of schema nodes for largeSchema; describe adds the
// descriptions afterwards.
func obj(props map[string]any, required ...string) map[string]any {
	m := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		m["required"] = required
	}
	return m
}

func arr(items map[string]any) map[string]any { return map[string]any{"type": "array", "items": items} }

func str() map[string]any { return map[string]any{"type": "string"} }

func enum(def string, values ...string) map[string]any {
	m := map[string]any{"type": "string", "enum": values}
	if def != "" {
		m["default"] = def
	}
	return m
}

func pattern(p string, maxLength int) map[string]any {
	return map[string]any{"type": "string", "pattern": p, "maxLength": maxLength}
}

func integer(minimum, maximum int) map[string]any {
	return map[string]any{"type": "integer", "format": "int32", "minimum": minimum, "maximum": maximum}
}

func boolean() map[string]any { return map[string]any{"type": "boolean"} }

func intOrString() map[string]any {
	return map[string]any{"x-kubernetes-int-or-string": true, "anyOf": []any{map[string]any{"type": "integer"}, map[string]any{"type": "string"}}}
}

func stringMap() map[string]any {
	return map[string]any{"type": "object", "additionalProperties": str()}
}

const dnsLabel = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"

func keyRef() map[string]any {
	return obj(map[string]any{"name": str(), "key": str(), "optional": boolean()}, "key")
}

func labelSelector() map[string]any {
	return obj(map[string]any{"matchLabels": stringMap(), "matchExpressions": arr(obj(map[string]any{
		"key": str(), "operator": enum("", "In", "NotIn", "Exists", "DoesNotExist"), "values": arr(str())}, "key", "operator"))})
}

func handler() map[string]any {
	return obj(map[string]any{
		"exec": obj(map[string]any{"command": arr(str())}),
		"httpGet": obj(map[string]any{"path": str(), "port": intOrString(), "host": str(), "scheme": enum("HTTP", "HTTP", "HTTPS"),
			"httpHeaders": arr(obj(map[string]any{"name": str(), "value": str()}, "name", "value"))}, "port"),
		"tcpSocket": obj(map[string]any{"port": intOrString(), "host": str()}, "port"),
	})
}

func probe() map[string]any {
	p := handler()
	props := p["properties"].(map[string]any)
	props["grpc"] = obj(map[string]any{"port": integer(1, 65535), "service": str()}, "port")
	props["initialDelaySeconds"] = integer(0, 3600)
	props["periodSeconds"] = map[string]any{"type": "integer", "format": "int32", "minimum": 1, "default": 10}
	props["timeoutSeconds"] = map[string]any{"type": "integer", "format": "int32", "minimum": 1, "default": 1}
	props["successThreshold"] = integer(1, 100)
	props["failureThreshold"] = map[string]any{"type": "integer", "format": "int32", "minimum": 1, "default": 3}
	return p
}

func container() map[string]any {
	return obj(map[string]any{
		"name": pattern(dnsLabel, 63), "image": str(), "imagePullPolicy": enum("IfNotPresent", "Always", "IfNotPresent", "Never"),
		"command": arr(str()), "args": arr(str()), "workingDir": str(),
		"ports": arr(obj(map[string]any{"name": pattern("^[a-z0-9-]+$", 15), "containerPort": integer(1, 65535), "hostPort": integer(0, 65535),
			"hostIP": str(), "protocol": enum("TCP", "TCP", "UDP", "SCTP")}, "containerPort")),
		"env": arr(obj(map[string]any{"name": str(), "value": str(), "valueFrom": obj(map[string]any{
			"configMapKeyRef": keyRef(), "secretKeyRef": keyRef(),
			"fieldRef":         obj(map[string]any{"apiVersion": str(), "fieldPath": str()}, "fieldPath"),
			"resourceFieldRef": obj(map[string]any{"containerName": str(), "resource": str(), "divisor": intOrString()}, "resource")})}, "name")),
		"envFrom": arr(obj(map[string]any{"prefix": str(), "configMapRef": obj(map[string]any{"name": str(), "optional": boolean()}),
			"secretRef": obj(map[string]any{"name": str(), "optional": boolean()})})),
		"resources": obj(map[string]any{"limits": map[string]any{"type": "object", "additionalProperties": intOrString()},
			"requests": map[string]any{"type": "object", "additionalProperties": intOrString()},
			"claims":   arr(obj(map[string]any{"name": str()}, "name"))}),
		"livenessProbe": probe(), "readinessProbe": probe(), "startupProbe": probe(),
		"lifecycle": obj(map[string]any{"postStart": handler(), "preStop": handler()}),
		"securityContext": obj(map[string]any{
			"capabilities": obj(map[string]any{"add": arr(str()), "drop": arr(str())}),
			"privileged":   boolean(), "runAsUser": map[string]any{"type": "integer", "format": "int64", "minimum": 0}, "runAsNonRoot": boolean(),
			"readOnlyRootFilesystem": boolean(), "allowPrivilegeEscalation": boolean(),
			"seLinuxOptions": obj(map[string]any{"user": str(), "role": str(), "type": str(), "level": str()}),
			"seccompProfile": obj(map[string]any{"type": enum("", "RuntimeDefault", "Unconfined", "Localhost"), "localhostProfile": str()}, "type")}),
		"volumeMounts": arr(obj(map[string]any{"name": str(), "mountPath": str(), "readOnly": boolean(), "subPath": str(),
			"mountPropagation": enum("", "None", "HostToContainer", "Bidirectional")}, "name", "mountPath")),
		"terminationMessagePolicy": enum("File", "File", "FallbackToLogsOnError"),
	}, "name")
}

func nodeSelectorTerm() map[string]any {
	req := obj(map[string]any{"key": str(), "operator": enum("", "In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"), "values": arr(str())}, "key", "operator")
	return obj(map[string]any{"matchExpressions": arr(req), "matchFields": arr(req)})
}

func podAffinityTerm() map[string]any {
	return obj(map[string]any{"labelSelector": labelSelector(), "namespaceSelector": labelSelector(),
		"namespaces": arr(str()), "topologyKey": str()}, "topologyKey")
}

func podAffinity() map[string]any {
	return obj(map[string]any{
		"requiredDuringSchedulingIgnoredDuringExecution": arr(podAffinityTerm()),
		"preferredDuringSchedulingIgnoredDuringExecution": arr(obj(map[string]any{"weight": integer(1, 100),
			"podAffinityTerm": podAffinityTerm()}, "weight", "podAffinityTerm")),
	})
}

func keyToPath() map[string]any {
	return arr(obj(map[string]any{"key": str(), "path": str(), "mode": integer(0, 511)}, "key", "path"))
}

func podTemplate() map[string]any {
	return obj(map[string]any{
		"metadata": obj(map[string]any{"labels": stringMap(), "annotations": stringMap()}),
		"spec": obj(map[string]any{
			"containers": arr(container()), "initContainers": arr(container()),
			"volumes": arr(obj(map[string]any{"name": pattern(dnsLabel, 63),
				"configMap":             obj(map[string]any{"name": str(), "items": keyToPath(), "defaultMode": integer(0, 511), "optional": boolean()}),
				"secret":                obj(map[string]any{"secretName": str(), "items": keyToPath(), "defaultMode": integer(0, 511), "optional": boolean()}),
				"emptyDir":              obj(map[string]any{"medium": enum("", "", "Memory"), "sizeLimit": intOrString()}),
				"persistentVolumeClaim": obj(map[string]any{"claimName": str(), "readOnly": boolean()}, "claimName"),
				"projected": obj(map[string]any{"defaultMode": integer(0, 511), "sources": arr(obj(map[string]any{
					"configMap":           obj(map[string]any{"name": str(), "items": keyToPath()}),
					"secret":              obj(map[string]any{"name": str(), "items": keyToPath()}),
					"serviceAccountToken": obj(map[string]any{"audience": str(), "expirationSeconds": map[string]any{"type": "integer", "minimum": 600}, "path": str()}, "path"),
				}))}),
			}, "name")),
			"affinity": obj(map[string]any{
				"nodeAffinity": obj(map[string]any{
					"requiredDuringSchedulingIgnoredDuringExecution": obj(map[string]any{"nodeSelectorTerms": arr(nodeSelectorTerm())}, "nodeSelectorTerms"),
					"preferredDuringSchedulingIgnoredDuringExecution": arr(obj(map[string]any{"weight": integer(1, 100),
						"preference": nodeSelectorTerm()}, "weight", "preference")),
				}),
				"podAffinity": podAffinity(), "podAntiAffinity": podAffinity(),
			}),
			"tolerations": arr(obj(map[string]any{"key": str(), "operator": enum("Equal", "Exists", "Equal"), "value": str(),
				"effect": enum("", "NoSchedule", "PreferNoSchedule", "NoExecute"), "tolerationSeconds": map[string]any{"type": "integer", "format": "int64"}})),
			"topologySpreadConstraints": arr(obj(map[string]any{"maxSkew": integer(1, 100), "topologyKey": str(),
				"whenUnsatisfiable": enum("", "DoNotSchedule", "ScheduleAnyway"), "labelSelector": labelSelector()}, "maxSkew", "topologyKey", "whenUnsatisfiable")),
			"nodeSelector": stringMap(), "serviceAccountName": pattern(dnsLabel, 253),
			"restartPolicy":                 enum("Always", "Always", "OnFailure", "Never"),
			"dnsPolicy":                     enum("ClusterFirst", "ClusterFirst", "ClusterFirstWithHostNet", "Default", "None"),
			"terminationGracePeriodSeconds": map[string]any{"type": "integer", "format": "int64", "minimum": 0, "default": 30},
			"priorityClassName":             str(),
		}, "containers"),
	})
}

// pipelineLevel is an array of objects nesting the next level under
// "children", depth levels deep in all.
func pipelineLevel(depth int) map[string]any {
	props := map[string]any{"name": pattern(dnsLabel, 63), "mode": enum("Serial", "Serial", "Parallel"), "timeoutSeconds": integer(1, 86400)}
	if depth > 1 {
		props["children"] = pipelineLevel(depth - 1)
	} else {
		props["params"] = stringMap()
	}
	return arr(obj(props, "name"))
}

// largeComponents are the components of largeSchema, each with a pod
// template of its own, as operators of several workloads declare them.
var largeComponents = []string{"server", "worker", "gateway"}

// pipelineDepth is how deep largeSchema's nested arrays of objects go.
const pipelineDepth = 10

// largeSchema is the openAPIV3Schema of a real-world-sized definition,
// built the same way every time: a pod template per component, a
// pipeline of arrays of objects pipelineDepth deep, and a description on
// every node.
func largeSchema() map[string]any {
	components := map[string]any{}
	for _, c := range largeComponents {
		components[c] = obj(map[string]any{"replicas": map[string]any{"type": "integer", "format": "int32", "minimum": 0, "default": 1},
			"template": podTemplate(),
			"service": obj(map[string]any{"type": enum("ClusterIP", "ClusterIP", "NodePort", "LoadBalancer"),
				"ports": arr(obj(map[string]any{"name": str(), "port": integer(1, 65535), "targetPort": intOrString()}, "port"))})})
	}
	schema := obj(map[string]any{
		"spec": obj(map[string]any{
			"version":    pattern(`^v[0-9]+\.[0-9]+\.[0-9]+$`, 32),
			"components": obj(components),
			"pipeline":   obj(map[string]any{"stages": pipelineLevel(pipelineDepth)}),
		}, "version"),
		"status": obj(map[string]any{"phase": enum("", "Pending", "Running", "Failed"), "observedGeneration": map[string]any{"type": "integer", "format": "int64"},
			"conditions": arr(obj(map[string]any{"type": str(), "status": enum("", "True", "False", "Unknown"), "reason": str(), "message": str(),
				"lastTransitionTime": map[string]any{"type": "string", "format": "date-time"}}, "type", "status"))}),
	})
	describe(schema, "")
	return schema
}

// describe gives every node below the root a description of a few
// sentences naming its path, as generated CRDs carry their Go types'
// comments.
func describe(node map[string]any, path string) {
	if path != "" {
		node["description"] = fmt.Sprintf("%s is passed on unchanged to the objects the operator creates for the component; "+
			"empty keeps the cluster's default. See the documentation of %s.", path, path[strings.LastIndex(path, ".")+1:])
	}
	if props, ok := node["properties"].(map[string]any); ok {
		for k, v := range props {
			describe(v.(map[string]any), path+"."+k)
		}
	}
	if items, ok := node["items"].(map[string]any); ok {
		describe(items, path+"[]")
	}
	if ap, ok := node["additionalProperties"].(map[string]any); ok {
		describe(ap, path+"{}")
	}
}

// pipelineInstance is a pipeline value depth levels deep; the deepest
// level leaves its mode to the default and carries a field the schema
// does not name.
func pipelineInstance(depth int, leafName string) []any {
	if depth == 1 {
		return []any{map[string]any{"name": leafName, "params": map[string]any{"k": "v"}, "undeclared": true}}
	}
	return []any{map[string]any{"name": fmt.Sprintf("level-%d", depth), "mode": "Parallel", "timeoutSeconds": 60,
		"children": pipelineInstance(depth-1, leafName)}}
}

// largeInstance is a realistic object of largeSchema: one component with
// a full pod template, and the pipeline. Defaults and pruning apply at
// every depth; leafName and operator let a test make it invalid deep
// down.
func largeInstance(name, leafName, operator string) map[string]any {
	web := map[string]any{"name": "web", "image": "registry.example.com/shop/web:2.4.1",
		"args":  []any{"--listen=:8080"},
		"ports": []any{map[string]any{"name": "http", "containerPort": 8080}},
		"env": []any{map[string]any{"name": "DB_PASSWORD", "valueFrom": map[string]any{"secretKeyRef": map[string]any{"name": "db", "key": "password"}}},
			map[string]any{"name": "MODE", "value": "production"}},
		"resources":      map[string]any{"limits": map[string]any{"cpu": "1", "memory": "512Mi"}, "requests": map[string]any{"cpu": "250m", "memory": 268435456}},
		"livenessProbe":  map[string]any{"httpGet": map[string]any{"path": "/healthz", "port": "http", "undeclared": "x"}, "initialDelaySeconds": 5},
		"readinessProbe": map[string]any{"tcpSocket": map[string]any{"port": 8080}},
		"securityContext": map[string]any{"runAsNonRoot": true, "capabilities": map[string]any{"drop": []any{"ALL"}},
			"seccompProfile": map[string]any{"type": "RuntimeDefault"}},
		"volumeMounts": []any{map[string]any{"name": "config", "mountPath": "/etc/web", "readOnly": true}},
	}
	template := map[string]any{
		"metadata": map[string]any{"labels": map[string]any{"app": "shop", "component": "server"}},
		"spec": map[string]any{"containers": []any{web},
			"volumes": []any{map[string]any{"name": "config", "configMap": map[string]any{"name": "shop", "items": []any{map[string]any{"key": "web.yaml", "path": "web.yaml"}}}}},
			"affinity": map[string]any{"nodeAffinity": map[string]any{"requiredDuringSchedulingIgnoredDuringExecution": map[string]any{
				"nodeSelectorTerms": []any{map[string]any{"matchExpressions": []any{map[string]any{"key": "zone", "operator": operator, "values": []any{"a", "b"}}}}}}}},
			"tolerations": []any{map[string]any{"key": "dedicated", "value": "shop", "effect": "NoSchedule"}},
		},
	}
	return map[string]any{"apiVersion": "ops.example.com/v1", "kind": "Shop", "metadata": map[string]any{"name": name},
		"spec": map[string]any{"version": "v2.4.1", "components": map[string]any{"server": map[string]any{"replicas": 3, "template": template}},
			"pipeline": map[string]any{"stages": pipelineInstance(pipelineDepth, leafName)}}}
}

// largeDefinition is the definition of shops.ops.example.com with
// largeSchema.
func largeDefinition() map[string]any {
	return withSchema(definition("ops.example.com", "shops", "Shop", "Namespaced"), largeSchema())
}

// at follows a path of map keys and list indexes through a JSON tree.
func at(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			l, _ := v.([]any)
			if k >= len(l) {
				return nil
			}
			v = l[k]
		}
	}
	return v
}

// TestLargeDefinition: a definition of real-world size (several hundred
// KB of schema, a pod template per component, arrays of objects ten
// deep) is established, and its objects are pruned, defaulted and
// validated at every depth.
func TestLargeDefinition(t *testing.T) {
	s := framework.Start(t)
	crd := largeDefinition()
	size := len(mustJSON(t, crd))
	if size < 300<<10 {
		t.Fatalf("the definition has %d bytes of JSON, want a large one", size)
	}
	t.Logf("definition: %d bytes of JSON", size)
	start := time.Now()
	s.Do(t, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd).Expect(t, http.StatusCreated)
	// The bound only keeps a broken server from hanging the test: the
	// wait is on the condition.
	framework.Eventually(t, 2*time.Minute, "the large definition established", func() bool {
		r := s.Do(t, "GET", crdsPath+"/shops.ops.example.com", nil)
		return r.Code == http.StatusOK && condition(t, r.Map(t), "Established") == "True"
	})
	base := "/apis/ops.example.com/v1/namespaces/default/shops"
	framework.Eventually(t, 2*time.Minute, "shops served", func() bool { return s.Do(t, "GET", base, nil).Code == http.StatusOK })
	t.Logf("established and served in %v", time.Since(start))

	r := s.Do(t, "POST", base, largeInstance("shop", "leaf", "In")).Expect(t, http.StatusCreated)
	if w := r.Header.Get("Warning"); !strings.Contains(w, "undeclared") {
		t.Errorf("no warning of the pruned fields: %q", w)
	}
	got := s.Do(t, "GET", base+"/shop", nil).Expect(t, http.StatusOK).Map(t)
	spec := at(got, "spec", "components", "server", "template", "spec")
	web := at(spec, "containers", 0)
	leaf := at(got, "spec", "pipeline", "stages", 0)
	for range pipelineDepth - 1 {
		leaf = at(leaf, "children", 0)
	}
	checks := []struct {
		what      string
		got, want any
	}{
		{"defaulted port protocol", at(web, "ports", 0, "protocol"), "TCP"},
		{"defaulted probe scheme", at(web, "livenessProbe", "httpGet", "scheme"), "HTTP"},
		{"defaulted probe period", at(web, "livenessProbe", "periodSeconds"), float64(10)},
		{"defaulted pull policy", at(web, "imagePullPolicy"), "IfNotPresent"},
		{"defaulted restart policy", at(spec, "restartPolicy"), "Always"},
		{"defaulted toleration operator", at(spec, "tolerations", 0, "operator"), "Equal"},
		{"pruned probe field", at(web, "livenessProbe", "httpGet", "undeclared"), nil},
		{"kept quantity", at(web, "resources", "requests", "memory"), float64(268435456)},
		{"kept secret reference", at(web, "env", 0, "valueFrom", "secretKeyRef", "key"), "password"},
		{"leaf name", at(leaf, "name"), "leaf"},
		{"defaulted leaf mode", at(leaf, "mode"), "Serial"},
		{"pruned leaf field", at(leaf, "undeclared"), nil},
		{"kept leaf params", at(leaf, "params", "k"), "v"},
		{"undeclared component absent", at(got, "spec", "components", "worker"), nil},
	}
	for _, c := range checks {
		if fmt.Sprint(c.got) != fmt.Sprint(c.want) {
			t.Errorf("%s: %v, want %v", c.what, c.got, c.want)
		}
	}

	// Errors deep down: one cause per field, with the full path.
	st := s.Do(t, "POST", base, largeInstance("bad", "Not_A_Label", "Maybe")).ExpectStatus(t, http.StatusUnprocessableEntity, "Invalid")
	var fields []string
	for _, c := range st["details"].(map[string]any)["causes"].([]any) {
		fields = append(fields, c.(map[string]any)["field"].(string))
	}
	slices.Sort(fields)
	want := []string{
		"spec.components.server.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator",
		"spec.pipeline.stages[0]" + strings.Repeat(".children[0]", pipelineDepth-1) + ".name",
	}
	if !slices.Equal(fields, want) {
		t.Errorf("causes on\n%s\nwant\n%s", strings.Join(fields, "\n"), strings.Join(want, "\n"))
	}
	s.Do(t, "GET", base+"/bad", nil).ExpectStatus(t, http.StatusNotFound, "NotFound")
}

// BenchmarkLargeSchemaInstance is what a write of largeInstance costs in
// schema work against largeSchema: prune, default and validate a fresh
// copy, as a create does.
func BenchmarkLargeSchemaInstance(b *testing.B) {
	data, err := json.Marshal(largeSchema())
	if err != nil {
		b.Fatal(err)
	}
	s, errs := structural.Load(data, nil)
	if len(errs) > 0 {
		b.Fatal(errs)
	}
	raw, err := json.Marshal(largeInstance("shop", "leaf", "In"))
	if err != nil {
		b.Fatal(err)
	}
	v, err := jsontree.Decode(raw)
	if err != nil {
		b.Fatal(err)
	}
	obj := v.(map[string]any)
	b.ReportAllocs()
	for b.Loop() {
		o := jsontree.DeepCopy(obj).(map[string]any)
		s.Prune(o, true)
		s.ApplyDefaults(o)
		if errs := s.Validate(nil, o); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}
