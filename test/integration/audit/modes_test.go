package audit

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/test/integration/framework"
)

// TestLogModes writes to /dev/full, where every write fails: blocking-strict
// refuses the request with 500 and counts it, blocking lets it through and
// counts the lost events, batch lets it through and loses them in the
// background.
func TestLogModes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		mode     string
		code     int
		rejected bool
	}{
		{options.AuditModeBlockingStrict, http.StatusInternalServerError, true},
		{options.AuditModeBlocking, http.StatusCreated, false},
		{options.AuditModeBatch, http.StatusCreated, false},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			t.Parallel()
			pol := writeFile(t, "policy.yaml", policy)
			s := framework.Start(t, func(o *options.Options) {
				o.Audit.PolicyFile, o.Audit.Log.Path, o.Audit.Log.Batch.Mode = pol, "/dev/full", tt.mode
			})
			r := s.Do(t, "POST", "/api/v1/namespaces/default/configmaps", configMap("m", 10)).Expect(t, tt.code)
			if tt.rejected && !strings.Contains(string(r.Body), "failed to store audit event") {
				t.Errorf("body %s", r.Body)
			}
			framework.Eventually(t, 10*time.Second, "lost events counted", func() bool {
				return metric(t, s, `apiserver_audit_error_total{plugin="log"}`) > 0
			})
			if got := metric(t, s, "apiserver_audit_requests_rejected_total"); (got > 0) != tt.rejected {
				t.Errorf("apiserver_audit_requests_rejected_total = %v", got)
			}
		})
	}
}

// TestLogBatch: in batch mode events reach the file in the background.
func TestLogBatch(t *testing.T) {
	t.Parallel()
	var path string
	s := framework.Start(t, withLog(t, &path, func(a *options.Audit) {
		a.Log.Batch.Mode = options.AuditModeBatch
		a.Log.Batch.Config.MaxBatchSize = 10
		a.Log.Batch.Config.MaxBatchWait = 50 * time.Millisecond
	}))
	id := auditID("batch")
	s.Do(t, "GET", "/api/v1/namespaces/default/pods", nil, id).Expect(t, 200)
	waitEvents(t, path, idOf(id), complete)
	if got := metric(t, s, "apiserver_audit_event_total"); got < 2 {
		t.Errorf("apiserver_audit_event_total = %v", got)
	}
	if got := metric(t, s, `apiserver_audit_level_total{level="Metadata"}`); got < 1 {
		t.Errorf("apiserver_audit_level_total{Metadata} = %v", got)
	}
}

// TestForbiddenAndImpersonation runs on the secure port with RBAC: a user
// without rights is refused and recorded, a refused impersonation too,
// and an allowed one records both users.
func TestForbiddenAndImpersonation(t *testing.T) {
	t.Parallel()
	var path string
	tokens := writeFile(t, "tokens.csv", "admin,admin,uid-admin,\"system:masters\"\nalice,alice,uid-alice,\"\"\n")
	s := framework.Start(t, withLog(t, &path), func(o *options.Options) {
		o.Authz.Modes = []string{options.ModeRBAC}
		o.Authn.TokenAuthFile = tokens
	})
	sec := s.Secure(t)
	bearer := func(u string) framework.Header { return framework.Header{"Authorization": "Bearer " + u} }
	framework.Eventually(t, 20*time.Second, "RBAC ready", func() bool {
		return sec.Do(t, "GET", "/api/v1/namespaces/default/pods", nil, bearer("admin")).Code == http.StatusOK
	})

	tests := []struct {
		name       string
		headers    framework.Header
		code       int
		user, as   string
		wantReason string
		// decision is the authorization filter's annotation; a refused
		// impersonation never reaches it.
		decision string
	}{
		{"no rights", framework.Header{}, http.StatusForbidden, "alice", "", "Forbidden", "forbid"},
		{"impersonation refused", framework.Header{"Impersonate-User": "admin"}, http.StatusForbidden, "alice", "", "Forbidden", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := auditID("authz")
			tt.headers["Authorization"] = "Bearer " + tt.user
			sec.Do(t, "GET", "/api/v1/namespaces/default/secrets", nil, id, tt.headers).Expect(t, tt.code)
			got := waitEvents(t, path, idOf(id), complete)
			last := got[len(got)-1]
			if last.User.Username != tt.user || last.ResponseStatus == nil || last.ResponseStatus.Code != int32(tt.code) ||
				string(last.ResponseStatus.Reason) != tt.wantReason || last.ResponseStatus.Message == "" {
				t.Errorf("event user %q status %+v", last.User.Username, last.ResponseStatus)
			}
			if got := last.Annotations["authorization.platform.io/decision"]; got != tt.decision {
				t.Errorf("decision annotation %q, want %q", got, tt.decision)
			}
		})
	}
	t.Run("authentication failed", func(t *testing.T) {
		id := auditID("401")
		r := sec.Do(t, "GET", "/api/v1/namespaces/default/pods", nil, id, bearer("wrong-token")).Expect(t, http.StatusUnauthorized)
		if r.Header.Get("Audit-ID") != idOf(id) {
			t.Errorf("401 without the Audit-ID header: %v", r.Header)
		}
		got := waitEvents(t, path, idOf(id), started)
		if len(got) != 1 || got[0].User.Username != "" || got[0].ResponseStatus == nil || got[0].ResponseStatus.Code != 401 || got[0].Verb != "list" {
			t.Errorf("events %+v", got)
		}
	})
	t.Run("impersonation allowed", func(t *testing.T) {
		id := auditID("as")
		sec.Do(t, "GET", "/api/v1/namespaces/default/pods", nil, id, bearer("admin"), framework.Header{"Impersonate-User": "alice"}).Expect(t, http.StatusForbidden)
		got := waitEvents(t, path, idOf(id), complete)
		if got[0].ImpersonatedUser != nil {
			t.Errorf("RequestReceived already has the impersonated user (it is recorded before impersonation)")
		}
		last := got[len(got)-1]
		if last.User.Username != "admin" || last.ImpersonatedUser == nil || last.ImpersonatedUser.Username != "alice" {
			t.Errorf("user %q impersonatedUser %+v", last.User.Username, last.ImpersonatedUser)
		}
	})
	t.Run("allowed", func(t *testing.T) {
		id := auditID("allowed")
		sec.Do(t, "GET", "/api/v1/namespaces/default/pods", nil, id, bearer("admin")).Expect(t, http.StatusOK)
		got := waitEvents(t, path, idOf(id), complete)
		last := got[len(got)-1]
		if _, ok := last.Annotations["authorization.platform.io/reason"]; !ok || last.Annotations["authorization.platform.io/decision"] != "allow" {
			t.Errorf("allowed request's annotations %v", last.Annotations)
		}
		if _, ok := got[0].Annotations["authorization.platform.io/decision"]; ok {
			t.Errorf("RequestReceived has the decision made after it: %v", got[0].Annotations)
		}
	})
}

// kubeconfig writes a kubeconfig naming url, trusting the PEM certificate.
func kubeconfig(t *testing.T, url string, caPEM []byte) string {
	t.Helper()
	ca := ""
	if caPEM != nil {
		ca = fmt.Sprintf("    certificate-authority: %s\n", writeFile(t, "ca.pem", string(caPEM)))
	}
	return writeFile(t, "webhook.kubeconfig", fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: audit
  cluster:
    server: %s
%susers:
- name: apiserver
  user: {}
contexts:
- name: audit
  context: {cluster: audit, user: apiserver}
current-context: audit
`, url, ca))
}
