package audit

import (
	"encoding/json"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	auditv1 "platform.io/client/api/audit/v1"

	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/test/integration/framework"
)

// receiver is an audit webhook server: it keeps every EventList posted to
// /audit, or answers with fail's code when fail is set.
type receiver struct {
	mu    sync.Mutex
	lists []auditv1.EventList
	types []string
	fail  int
	block chan struct{}
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if rc.block != nil {
		<-rc.block
	}
	if r.URL.Path != "/audit" || r.Method != http.MethodPost {
		http.Error(w, "wrong path", http.StatusNotFound)
		return
	}
	if rc.fail != 0 {
		http.Error(w, "failing", rc.fail)
		return
	}
	body, err := io.ReadAll(r.Body)
	var list auditv1.EventList
	if err == nil {
		err = json.Unmarshal(body, &list)
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	rc.mu.Lock()
	rc.lists = append(rc.lists, list)
	rc.types = append(rc.types, r.Header.Get("Content-Type"))
	rc.mu.Unlock()
	w.WriteHeader(http.StatusOK)
}

// events returns the events of id received so far, and the lists that
// carried them.
func (rc *receiver) events(id string) ([]auditv1.Event, []auditv1.EventList) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	var evs []auditv1.Event
	var lists []auditv1.EventList
	for _, l := range rc.lists {
		if got := eventsOf(l.Items, id); len(got) > 0 {
			evs = append(evs, got...)
			lists = append(lists, l)
		}
	}
	return evs, lists
}

// startWebhook runs rc over HTTPS and returns a kubeconfig naming it.
func startWebhook(t *testing.T, rc *receiver) string {
	t.Helper()
	srv := httptest.NewTLSServer(rc)
	t.Cleanup(srv.Close)
	ca := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	return kubeconfig(t, srv.URL+"/audit", ca)
}

// TestWebhookBatches: events reach an HTTPS webhook as EventLists, in the
// version asked for.
func TestWebhookBatches(t *testing.T) {
	t.Parallel()
	for _, version := range []string{"audit.platform.io/v1", "audit.k8s.io/v1"} {
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			rc := &receiver{}
			kc := startWebhook(t, rc)
			pol := writeFile(t, "policy.yaml", policy)
			s := framework.Start(t, func(o *options.Options) {
				o.Audit.PolicyFile, o.Audit.Webhook.ConfigFile, o.Audit.Webhook.Version = pol, kc, version
				o.Audit.Webhook.Batch.Config.MaxBatchWait = 50 * time.Millisecond
			})
			id := auditID("hook")
			s.Do(t, "POST", "/api/v1/namespaces/default/configmaps", configMap("hook", 10), id).Expect(t, 201)
			var evs []auditv1.Event
			var lists []auditv1.EventList
			framework.Eventually(t, 10*time.Second, "events at the webhook", func() bool {
				evs, lists = rc.events(idOf(id))
				return len(evs) == 2
			})
			if evs[0].Stage != received || evs[1].Stage != complete || evs[1].ResponseObject == nil || evs[1].ResponseStatus.Code != 201 {
				t.Errorf("events %+v", evs)
			}
			for _, l := range lists {
				if l.Kind != "EventList" || l.APIVersion != version {
					t.Errorf("list kind %q apiVersion %q", l.Kind, l.APIVersion)
				}
			}
			if got := rc.types[0]; got != "application/json" {
				t.Errorf("Content-Type %q", got)
			}
		})
	}
}

// TestWebhookBlockingStrict: a webhook that keeps failing (after the
// retries) fails the request in blocking-strict mode.
func TestWebhookBlockingStrict(t *testing.T) {
	t.Parallel()
	rc := &receiver{fail: http.StatusInternalServerError}
	kc := startWebhook(t, rc)
	pol := writeFile(t, "policy.yaml", policy)
	s := framework.Start(t, func(o *options.Options) {
		o.Audit.PolicyFile, o.Audit.Webhook.ConfigFile = pol, kc
		o.Audit.Webhook.Batch.Mode = options.AuditModeBlockingStrict
		o.Audit.Webhook.InitialBackoff = time.Millisecond
	})
	s.Do(t, "POST", "/api/v1/namespaces/default/configmaps", configMap("strict", 10)).Expect(t, http.StatusInternalServerError)
	if got := metric(t, s, "apiserver_audit_requests_rejected_total"); got != 1 {
		t.Errorf("apiserver_audit_requests_rejected_total = %v", got)
	}
	if got := metric(t, s, `apiserver_audit_error_total{plugin="webhook"}`); got < 1 {
		t.Errorf(`apiserver_audit_error_total{plugin="webhook"} = %v`, got)
	}
}

// TestWebhookBatchDropsWhenFull: with a webhook that does not answer and a
// buffer of two, requests still complete at once; the events that do not
// fit are dropped and counted.
func TestWebhookBatchDropsWhenFull(t *testing.T) {
	t.Parallel()
	rc := &receiver{block: make(chan struct{})}
	kc := startWebhook(t, rc)
	pol := writeFile(t, "policy.yaml", policy)
	s := framework.Start(t, func(o *options.Options) {
		o.Audit.PolicyFile, o.Audit.Webhook.ConfigFile = pol, kc
		c := &o.Audit.Webhook.Batch.Config
		c.BufferSize, c.MaxBatchSize, c.MaxBatchWait = 2, 1, time.Millisecond
		c.ThrottleQPS, c.ThrottleBurst = 0.001, 1
	})
	var once sync.Once
	t.Cleanup(func() { once.Do(func() { close(rc.block) }) })
	start := time.Now()
	for range 10 {
		s.Do(t, "GET", "/api/v1/namespaces/default/pods", nil).Expect(t, http.StatusOK)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("10 requests took %v behind a stuck webhook", d)
	}
	framework.Eventually(t, 10*time.Second, "dropped events counted", func() bool {
		return metric(t, s, `apiserver_audit_error_total{plugin="buffered"}`) >= 10
	})
}
