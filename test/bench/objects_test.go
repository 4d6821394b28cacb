package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// targetSize is the encoded size of a create request body.
const targetSize = 2048

// podTemplate is a pod as a deployment of a web service would create it:
// labels, annotations, an application container and a proxy sidecar with
// env, resources and probes. {{name}}, {{rv}}, {{seq}} and {{pad}} are
// filled in per request; {{pad}} brings the body to targetSize.
const podTemplate = `{
  "apiVersion": "v1",
  "kind": "Pod",
  "metadata": {
    "name": "{{name}}",
    "namespace": "default",
    {{rv}}
    "labels": {
      "app.kubernetes.io/name": "checkout",
      "app.kubernetes.io/instance": "checkout-prod",
      "app.kubernetes.io/version": "2.14.3",
      "pod-template-hash": "7d9f8c6b5d",
      "tier": "backend"
    },
    "annotations": {
      "prometheus.io/scrape": "true",
      "prometheus.io/port": "9090",
      "bench.platform.io/seq": "{{seq}}",
      "bench.platform.io/padding": "{{pad}}"
    }
  },
  "spec": {
    "containers": [
      {
        "name": "app",
        "image": "registry.example.com/shop/checkout:2.14.3",
        "args": ["--listen=:8080", "--metrics=:9090", "--log-level=info"],
        "ports": [
          {"name": "http", "containerPort": 8080, "protocol": "TCP"},
          {"name": "metrics", "containerPort": 9090, "protocol": "TCP"}
        ],
        "env": [
          {"name": "POD_NAME", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}},
          {"name": "POD_NAMESPACE", "valueFrom": {"fieldRef": {"fieldPath": "metadata.namespace"}}},
          {"name": "DATABASE_URL", "value": "postgres://db.shop.svc:5432/checkout"},
          {"name": "CACHE_ADDR", "value": "redis.shop.svc:6379"}
        ],
        "resources": {
          "requests": {"cpu": "250m", "memory": "256Mi"},
          "limits": {"cpu": "1", "memory": "512Mi"}
        },
        "livenessProbe": {
          "httpGet": {"path": "/healthz", "port": "http"},
          "initialDelaySeconds": 10, "periodSeconds": 10, "timeoutSeconds": 2, "failureThreshold": 3
        },
        "readinessProbe": {
          "httpGet": {"path": "/readyz", "port": 8080},
          "periodSeconds": 5, "timeoutSeconds": 1
        },
        "imagePullPolicy": "IfNotPresent"
      },
      {
        "name": "proxy",
        "image": "registry.example.com/mesh/proxy:1.22.0",
        "args": ["proxy", "sidecar"],
        "ports": [{"name": "proxy-admin", "containerPort": 15000, "protocol": "TCP"}],
        "env": [
          {"name": "INSTANCE_IP", "valueFrom": {"fieldRef": {"fieldPath": "status.podIP"}}}
        ],
        "resources": {
          "requests": {"cpu": "100m", "memory": "128Mi"},
          "limits": {"cpu": "500m", "memory": "256Mi"}
        },
        "livenessProbe": {"exec": {"command": ["proxy", "status"]}, "periodSeconds": 15},
        "readinessProbe": {"tcpSocket": {"port": 15000}, "periodSeconds": 10}
      }
    ],
    "restartPolicy": "Always",
    "terminationGracePeriodSeconds": 30,
    "dnsPolicy": "ClusterFirst"
  }
}`

// metaTemplate is the stand-in for resources other than pods (used only
// while pods are not served): the same metadata, padded to the same size.
const metaTemplate = `{
  "apiVersion": "v1",
  "kind": "{{kind}}",
  "metadata": {
    "name": "{{name}}",
    {{rv}}
    "labels": {"app.kubernetes.io/name": "checkout", "tier": "backend"},
    "annotations": {"bench.platform.io/seq": "{{seq}}", "bench.platform.io/padding": "{{pad}}"}
  }
}`

// bodies renders request bodies of one kind of object, all of the same size
// for names of the same length. The template is cut once at its
// placeholders, so a body costs one allocation and copy: the load generator
// shares the cores with the server it measures.
type bodies struct {
	template string
	pad      string
	parts    []bodyPart
}

// bodyPart is a literal piece of the template followed by a placeholder
// ("" after the last piece).
type bodyPart struct{ text, placeholder string }

var placeholders = []string{"{{name}}", "{{rv}}", "{{seq}}", "{{pad}}"}

func newBodies(kind string) (*bodies, error) {
	t := metaTemplate
	if kind == "Pod" {
		t = podTemplate
	}
	// Compact with a stand-in field where {{rv}} goes, then put the
	// placeholder back.
	const rvField = `"resourceVersion":"{{rv}}",`
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(strings.NewReplacer("{{rv}}", rvField, "{{kind}}", kind).Replace(t))); err != nil {
		return nil, fmt.Errorf("template: %w", err)
	}
	compact := strings.Replace(buf.String(), rvField, "{{rv}}", 1)
	b := &bodies{template: compact, parts: cut(compact)}
	size := len(b.render(objectName(0, 0), "", 0))
	if size > targetSize {
		return nil, fmt.Errorf("unpadded body is %d bytes, over %d", size, targetSize)
	}
	b.pad = strings.Repeat("x", targetSize-size)
	return b, nil
}

// cut splits a template at its placeholders.
func cut(t string) []bodyPart {
	var parts []bodyPart
	for {
		at, ph := len(t), ""
		for _, p := range placeholders {
			if i := strings.Index(t, p); i >= 0 && i < at {
				at, ph = i, p
			}
		}
		parts = append(parts, bodyPart{text: t[:at], placeholder: ph})
		if ph == "" {
			return parts
		}
		t = t[at+len(ph):]
	}
}

// render returns the body for the named object; a non-empty rv adds
// metadata.resourceVersion, as a replace sends it.
func (b *bodies) render(name, rv string, seq int) []byte {
	out := make([]byte, 0, len(b.template)+len(b.pad)+len(name)+len(rv)+64)
	for _, p := range b.parts {
		out = append(out, p.text...)
		switch p.placeholder {
		case "{{name}}":
			out = append(out, name...)
		case "{{rv}}":
			if rv != "" {
				out = append(out, `"resourceVersion":"`...)
				out = append(out, rv...)
				out = append(out, `",`...)
			}
		case "{{seq}}":
			out = fmt.Appendf(out, "%08d", seq)
		case "{{pad}}":
			out = append(out, b.pad...)
		}
	}
	return out
}

// objectName names object i of the scenarios at the given concurrency; all
// names have the same length.
func objectName(clients, i int) string { return fmt.Sprintf("checkout-c%02d-%07d", clients, i) }

// protoObjectName is objectName for the objects written over protobuf,
// which share the namespace.
func protoObjectName(clients, i int) string { return fmt.Sprintf("checkout-p%02d-%07d", clients, i) }

// resourceVersionOf finds metadata.resourceVersion in a response body
// without decoding it: metadata is the first object field with one.
func resourceVersionOf(body []byte) (string, error) {
	const field = `"resourceVersion":"`
	i := bytes.Index(body, []byte(field))
	if i < 0 {
		return "", fmt.Errorf("no resourceVersion in %.200s", body)
	}
	rest := body[i+len(field):]
	j := bytes.IndexByte(rest, '"')
	if j < 0 {
		return "", fmt.Errorf("unterminated resourceVersion in %.200s", body)
	}
	return string(rest[:j]), nil
}

// TestBodies checks that a body is valid JSON of targetSize bytes with
// every placeholder filled, with and without a resourceVersion.
func TestBodies(t *testing.T) {
	b, err := newBodies("Pod")
	if err != nil {
		t.Fatal(err)
	}
	for _, rv := range []string{"", "12345"} {
		body := b.render(objectName(64, 7), rv, 42)
		if rv == "" && len(body) != targetSize {
			t.Errorf("body is %d bytes, want %d", len(body), targetSize)
		}
		var pod struct {
			Metadata struct {
				Name            string            `json:"name"`
				ResourceVersion string            `json:"resourceVersion"`
				Annotations     map[string]string `json:"annotations"`
			} `json:"metadata"`
		}
		if err := json.Unmarshal(body, &pod); err != nil {
			t.Fatalf("body is not JSON: %v\n%s", err, body)
		}
		m := pod.Metadata
		if m.Name != objectName(64, 7) || m.ResourceVersion != rv || m.Annotations["bench.platform.io/seq"] != "00000042" {
			t.Errorf("name %q, resourceVersion %q, seq %q; want %q, %q, 00000042", m.Name, m.ResourceVersion, m.Annotations["bench.platform.io/seq"], objectName(64, 7), rv)
		}
		if strings.Contains(string(body), "{{") {
			t.Errorf("placeholder left in %s", body)
		}
	}
}
