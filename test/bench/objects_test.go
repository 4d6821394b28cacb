package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
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
// for names of the same length.
type bodies struct {
	template string
	pad      string
}

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
	b := &bodies{template: compact}
	size := len(b.render(objectName(0, 0), "", 0))
	if size > targetSize {
		return nil, fmt.Errorf("unpadded body is %d bytes, over %d", size, targetSize)
	}
	b.pad = strings.Repeat("x", targetSize-size)
	return b, nil
}

// render returns the body for the named object; a non-empty rv adds
// metadata.resourceVersion, as a replace sends it.
func (b *bodies) render(name, rv string, seq int) []byte {
	rvField := ""
	if rv != "" {
		rvField = `"resourceVersion":"` + rv + `",`
	}
	return []byte(strings.NewReplacer(
		"{{name}}", name,
		"{{rv}}", rvField,
		"{{seq}}", fmt.Sprintf("%08d", seq),
		"{{pad}}", b.pad,
	).Replace(b.template))
}

// objectName names object i of the scenarios at the given concurrency; all
// names have the same length.
func objectName(clients, i int) string { return fmt.Sprintf("checkout-c%02d-%07d", clients, i) }

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
