package audit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	auditv1 "platform.io/client/api/audit/v1"

	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/test/integration/framework"
)

// policy is the test's audit policy: configmaps at RequestResponse, secrets
// at Request, services without RequestReceived, the readiness and
// namespace traffic of the framework not at all, the rest at Metadata.
const policy = `
apiVersion: audit.platform.io/v1
kind: Policy
rules:
- level: None
  nonResourceURLs: ["/readyz*", "/healthz*", "/livez*", "/metrics"]
- level: None
  resources:
  - group: ""
    resources: ["namespaces"]
- level: RequestResponse
  resources:
  - group: ""
    resources: ["configmaps"]
- level: Request
  resources:
  - group: ""
    resources: ["secrets"]
- level: Metadata
  omitStages: ["RequestReceived"]
  resources:
  - group: ""
    resources: ["services"]
- level: Metadata
`

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// withLog audits to a file with the test policy and returns the file.
func withLog(t *testing.T, path *string, more ...func(*options.Audit)) framework.Option {
	pol := writeFile(t, "policy.yaml", policy)
	*path = filepath.Join(t.TempDir(), "audit.log")
	return func(o *options.Options) {
		o.Audit.PolicyFile = pol
		o.Audit.Log.Path = *path
		for _, f := range more {
			f(o.Audit)
		}
	}
}

// readEvents reads every JSON event of the log files given.
func readEvents(t *testing.T, paths ...string) []auditv1.Event {
	t.Helper()
	var out []auditv1.Event
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			var ev auditv1.Event
			if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
				t.Fatalf("%s: line %q is not an event: %v", p, sc.Text(), err)
			}
			out = append(out, ev)
		}
	}
	return out
}

// eventsOf returns the events of one audit ID.
func eventsOf(events []auditv1.Event, id string) []auditv1.Event {
	var out []auditv1.Event
	for _, ev := range events {
		if ev.AuditID == id {
			out = append(out, ev)
		}
	}
	return out
}

func stagesOf(events []auditv1.Event) []auditv1.Stage {
	out := make([]auditv1.Stage, len(events))
	for i, ev := range events {
		out[i] = ev.Stage
	}
	return out
}

// waitEvents waits until the log holds an event of id at the last stage
// wanted, and returns the id's events.
func waitEvents(t *testing.T, path, id string, last auditv1.Stage) []auditv1.Event {
	t.Helper()
	var got []auditv1.Event
	framework.Eventually(t, 10*time.Second, "audit events of "+id, func() bool {
		got = eventsOf(readEvents(t, path), id)
		return len(got) > 0 && got[len(got)-1].Stage == last
	})
	return got
}

// metric reads a counter of the server's /metrics (0 when absent).
func metric(t *testing.T, s *framework.Server, name string) float64 {
	t.Helper()
	body := string(s.Do(t, "GET", "/metrics", nil).Expect(t, 200).Body)
	re := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + ` ([0-9.e+]+)$`)
	m := re.FindStringSubmatch(body)
	if m == nil {
		return 0
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func auditID(name string) framework.Header {
	return framework.Header{"Audit-ID": name + "-" + strconv.FormatInt(time.Now().UnixNano(), 36)}
}

func idOf(h framework.Header) string {
	for _, v := range h {
		return v
	}
	return ""
}

func configMap(name string, size int) map[string]any {
	return map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": name},
		"data": map[string]string{"k": strings.Repeat("x", size)}}
}
