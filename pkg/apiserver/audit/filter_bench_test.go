package audit_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"go.uber.org/zap"

	"platform.io/platform/pkg/apiserver/audit"
	auditlog "platform.io/platform/pkg/apiserver/audit/log"
	"platform.io/platform/pkg/apiserver/audit/policy"
	"platform.io/platform/pkg/component/authn"
)

// BenchmarkFilter is the filter's own cost per request, without a server:
// a create at level Metadata written as two JSON lines to a file (the
// handler does nothing), next to the same request with no policy.
func BenchmarkFilter(b *testing.B) {
	p, err := policy.Parse([]byte("apiVersion: audit.platform.io/v1\nkind: Policy\nrules:\n- level: Metadata\n"))
	if err != nil {
		b.Fatal(err)
	}
	f, err := os.Create(filepath.Join(b.TempDir(), "audit.log"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	backend := audit.IgnoreErrors(auditlog.New(zap.NewNop(), f, auditlog.FormatJSON, "audit.platform.io/v1", nil))
	noop := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusCreated) })
	user := &authn.User{Name: "bench", Groups: []string{"system:authenticated"}}
	for _, c := range []struct {
		name string
		cfg  audit.Config
	}{{"off", audit.Config{}}, {"metadata-file", audit.Config{Backend: backend, Policy: policy.New(p)}}} {
		h := audit.WithAuditInit(zap.NewNop(), audit.WithAudit(zap.NewNop(), noop, c.cfg), c.cfg)
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				r := httptest.NewRequest(http.MethodPost, "/api/v1/namespaces/default/configmaps", http.NoBody)
				r.Header.Set("Content-Type", "application/vnd.kubernetes.protobuf")
				r = r.WithContext(authn.WithUser(r.Context(), user))
				h.ServeHTTP(httptest.NewRecorder(), r)
			}
		})
	}
}
