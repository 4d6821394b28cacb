package bench

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"platform.io/client/rest"

	"platform.io/platform/pkg/apiserver/options"
)

// auditWrites sizes BenchmarkAuditCost (writes per side).
const auditWrites = 3000

// BenchmarkAuditCost measures what audit logging costs a write (issue
// 15): the pod creates of BenchmarkAdmissionCost (64 clients, staging
// protobuf client, default admission plugins) against two in-process API
// servers that differ only in audit: none ("no-audit", the baseline), and
// every request at level Metadata written as JSON lines to a file in the
// default blocking mode ("audit-metadata-file", two lines per request).
// It checks that the log holds the audited side's events.
func BenchmarkAuditCost(b *testing.B) {
	dir := b.TempDir()
	policy, logPath := filepath.Join(dir, "policy.yaml"), filepath.Join(dir, "audit.log")
	doc := "apiVersion: audit.platform.io/v1\nkind: Policy\nrules:\n- level: Metadata\n"
	if err := os.WriteFile(policy, []byte(doc), 0o600); err != nil {
		b.Fatal(err)
	}
	configs := []admissionSide{
		{"no-audit", func(o *options.Options) {}},
		{"audit-metadata-file", func(o *options.Options) { o.Audit.PolicyFile, o.Audit.Log.Path = policy, logPath }},
	}
	var sides []writeSide
	for _, c := range configs {
		s := startSideServer(b, c.name, c.opts)
		s.Do(b, http.MethodPost, "/api/v1/namespaces", `{"metadata":{"name":"adm-bench"}}`).Expect(b, http.StatusCreated)
		s.Do(b, http.MethodPost, "/api/v1/namespaces/adm-bench/serviceaccounts", `{"metadata":{"name":"default"}}`)
		client, err := rest.NewClient(&rest.Config{Host: s.URL, QPS: -1})
		if err != nil {
			b.Fatal(err)
		}
		sides = append(sides, writeSide{name: c.name, write: func(lo, hi int) result { return createPods(client, c.name, benchPodSpec, lo, hi) }})
	}
	compareWrites(b, fmt.Sprintf("audit cost, pod creates at %d clients, Metadata level to a file (blocking)", admissionClients), auditWrites, sides)
	data, err := os.ReadFile(logPath)
	if err != nil {
		b.Fatal(err)
	}
	if lines := bytes.Count(data, []byte("\n")); lines < 2*auditWrites*b.N {
		b.Errorf("the audit log has %d lines, want at least %d (two per write)", lines, 2*auditWrites*b.N)
	} else {
		fmt.Printf("audit log: %d lines, %d bytes\n\n", lines, len(data))
	}
}
