package audit

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	auditv1 "platform.io/client/api/audit/v1"

	"platform.io/platform/pkg/apiserver/audit/policy"
	"platform.io/platform/pkg/component/authn"
)

// recorder is a backend keeping what it is given; fail makes it refuse.
type recorder struct {
	mu     sync.Mutex
	events []*auditv1.Event
	fail   bool
}

func (r *recorder) ProcessEvents(events ...*auditv1.Event) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, events...)
	return !r.fail
}
func (r *recorder) Run(ctx context.Context) { <-ctx.Done() }
func (r *recorder) String() string          { return "recorder" }

func evaluator(t *testing.T, level auditv1.Level) *policy.Evaluator {
	t.Helper()
	p, err := policy.Parse([]byte(`{"apiVersion":"audit.platform.io/v1","kind":"Policy","rules":[{"level":"` + string(level) + `"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	return policy.New(p)
}

func serve(h http.Handler, method, path, body string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r = r.WithContext(authn.WithUser(r.Context(), &authn.User{Name: "alice", Groups: []string{"dev"}}))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// TestFilterBodiesByLevel: the handler still reads the whole body, and the
// event records it only from level Request up.
func TestFilterBodiesByLevel(t *testing.T) {
	body := `{"kind":"ConfigMap","metadata":{"name":"cm","uid":"u1","managedFields":[{"manager":"x"}]}}`
	tests := []struct {
		level             auditv1.Level
		request, response bool
	}{
		{auditv1.LevelMetadata, false, false},
		{auditv1.LevelRequest, true, false},
		{auditv1.LevelRequestResponse, true, true},
	}
	for _, tt := range tests {
		t.Run(string(tt.level), func(t *testing.T) {
			rec := &recorder{}
			var seen string
			h := WithAudit(zap.NewNop(), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				seen = string(b)
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(201)
				io.WriteString(w, `{"kind":"ConfigMap"}`)
			}), Config{Backend: rec, Policy: evaluator(t, tt.level), Metrics: NewMetrics(prometheus.NewRegistry())})
			w := serve(h, "POST", "/api/v1/namespaces/default/configmaps", body)
			if seen != body {
				t.Errorf("handler read %q", seen)
			}
			if w.Header().Get(HeaderAuditID) == "" {
				t.Error("no Audit-ID")
			}
			if len(rec.events) != 2 {
				t.Fatalf("%d events", len(rec.events))
			}
			last := rec.events[1]
			if (last.RequestObject != nil) != tt.request || (last.ResponseObject != nil) != tt.response {
				t.Errorf("request %s response %s", last.RequestObject, last.ResponseObject)
			}
			if last.ObjectRef.Name != "cm" || last.ResponseStatus.Code != 201 {
				t.Errorf("objectRef %+v status %+v", last.ObjectRef, last.ResponseStatus)
			}
			if tt.request && last.ObjectRef.UID != "u1" {
				t.Errorf("uid not taken from the body: %+v", last.ObjectRef)
			}
		})
	}
}

// TestFilterOmitManagedFields: omitManagedFields drops them from bodies.
func TestFilterOmitManagedFields(t *testing.T) {
	p, err := policy.Parse([]byte(`{"apiVersion":"audit.platform.io/v1","kind":"Policy","omitManagedFields":true,"rules":[{"level":"Request"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	h := WithAudit(zap.NewNop(), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}), Config{Backend: rec, Policy: policy.New(p)})
	serve(h, "POST", "/api/v1/namespaces/default/configmaps", `{"metadata":{"name":"cm","managedFields":[{"manager":"x"}]}}`)
	if got := string(rec.events[0].RequestObject); got != `{"metadata":{"name":"cm"}}` {
		t.Errorf("requestObject %s", got)
	}
}

// TestFilterPanic: a panicking handler is recorded at stage Panic and the
// panic goes on.
func TestFilterPanic(t *testing.T) {
	rec := &recorder{}
	h := WithAudit(zap.NewNop(), http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") }),
		Config{Backend: rec, Policy: evaluator(t, auditv1.LevelMetadata)})
	func() {
		defer func() {
			if recover() == nil {
				t.Error("the panic did not go on")
			}
		}()
		serve(h, "GET", "/api/v1/pods", "")
	}()
	var stages []auditv1.Stage
	for _, ev := range rec.events {
		stages = append(stages, ev.Stage)
	}
	if diff := cmp.Diff([]auditv1.Stage{auditv1.StageRequestReceived, auditv1.StagePanic}, stages); diff != "" {
		t.Fatalf("stages (-want +got):\n%s", diff)
	}
	st := rec.events[1].ResponseStatus
	if st == nil || st.Code != 500 || !strings.Contains(st.Message, "boom") {
		t.Errorf("Panic status %+v", st)
	}
}

// TestFilterStrict: a backend refusing RequestReceived fails the request
// before the handler; a level None request is not recorded at all.
func TestFilterStrict(t *testing.T) {
	rec := &recorder{fail: true}
	called := false
	next := http.HandlerFunc(func(http.ResponseWriter, *http.Request) { called = true })
	w := serve(WithAudit(zap.NewNop(), next, Config{Backend: rec, Policy: evaluator(t, auditv1.LevelMetadata)}), "GET", "/api/v1/pods", "")
	if w.Code != 500 || called {
		t.Errorf("code %d, handler called %v", w.Code, called)
	}
	rec = &recorder{fail: true}
	w = serve(WithAudit(zap.NewNop(), next, Config{Backend: rec, Policy: evaluator(t, auditv1.LevelNone)}), "GET", "/api/v1/pods", "")
	if w.Code != 200 || !called || len(rec.events) != 0 {
		t.Errorf("level None: code %d, called %v, %d events", w.Code, called, len(rec.events))
	}
}

// TestSourceIPs follows upstream's order, without repeats.
func TestSourceIPs(t *testing.T) {
	r := httptest.NewRequest("GET", "/", nil)
	r.RemoteAddr = "10.0.0.9:1234"
	r.Header.Set("X-Forwarded-For", "1.2.3.4, 10.0.0.9")
	r.Header.Set("X-Real-Ip", "5.6.7.8")
	if diff := cmp.Diff([]string{"1.2.3.4", "10.0.0.9", "5.6.7.8"}, sourceIPs(r)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestAuditInit: the ID is set for every request; a 401 that never reached
// WithAudit is recorded once, a 401 from inside it is not recorded twice.
func TestAuditInit(t *testing.T) {
	rec := &recorder{}
	cfg := Config{Backend: rec, Policy: evaluator(t, auditv1.LevelMetadata)}
	unauthorized := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(401) })
	w := httptest.NewRecorder()
	WithAuditInit(zap.NewNop(), unauthorized, cfg).ServeHTTP(w, httptest.NewRequest("GET", "/api/v1/pods", nil))
	if w.Header().Get(HeaderAuditID) == "" || len(rec.events) != 1 || rec.events[0].Stage != auditv1.StageResponseStarted ||
		rec.events[0].ResponseStatus.Code != 401 || rec.events[0].AuditID != w.Header().Get(HeaderAuditID) {
		t.Fatalf("failed authentication: header %q, events %+v", w.Header().Get(HeaderAuditID), rec.events)
	}
	rec.events = nil
	w = httptest.NewRecorder()
	r := httptest.NewRequest("GET", "/api/v1/pods", nil)
	r.Header.Set(HeaderAuditID, "given")
	WithAuditInit(zap.NewNop(), WithAudit(zap.NewNop(), unauthorized, cfg), cfg).ServeHTTP(w, r)
	if w.Header().Get(HeaderAuditID) != "given" || len(rec.events) != 2 || rec.events[1].Stage != auditv1.StageResponseComplete {
		t.Errorf("authenticated 401: header %q, %d events", w.Header().Get(HeaderAuditID), len(rec.events))
	}
}
