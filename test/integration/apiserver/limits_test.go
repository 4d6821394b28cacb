package apiserver

import (
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/test/integration/framework"
)

// slowList is a list that waits for a revision the server will not reach
// for a few seconds: a request that holds its in-flight slot.
const slowList = "/api/v1/namespaces/default/configmaps?resourceVersion=999999999"

// TestLimits_MaxRequestsInFlight: beyond --max-requests-inflight, 429 with
// Retry-After; watches do not count, and neither do members of
// system:masters nor the lease reads and writes that keep daemons and
// nodes alive.
func TestLimits_MaxRequestsInFlight(t *testing.T) {
	tokens := filepath.Join(t.TempDir(), "tokens.csv")
	if err := os.WriteFile(tokens, []byte("admin,admin,uid-admin,\"system:masters\"\nbob,bob,uid-bob,\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	plain := framework.Start(t, func(o *options.Options) {
		o.Generic.MaxRequestsInFlight = 1
		o.Authn.TokenAuthFile = tokens
	})
	s := plain.Secure(t)
	bob := framework.Header{"Authorization": "Bearer bob"}
	admin := framework.Header{"Authorization": "Bearer admin"}
	lease := "/apis/coordination.platform.io/v1/namespaces/platform-system/leases/soak-lock"
	plain.Do(t, "POST", "/apis/coordination.platform.io/v1/namespaces/platform-system/leases",
		`{"metadata":{"name":"soak-lock"},"spec":{"holderIdentity":"a"}}`).Expect(t, http.StatusCreated)

	// A watch is long-running and takes no slot.
	w := openWatch(t, plain, "/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=10")
	defer w.Close()
	s.Do(t, "GET", "/api/v1/namespaces/default", nil, bob).Expect(t, http.StatusOK)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		// The slow request may itself meet another in flight; it retries.
		for i := 0; i < 20 && s.Do(t, "GET", slowList, nil, bob).Code == http.StatusTooManyRequests; i++ {
		}
	}()
	deadline := time.Now().Add(3 * time.Second)
	var r framework.Response
	for time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
		if r = s.Do(t, "GET", "/api/v1/namespaces/default", nil, bob); r.Code == http.StatusTooManyRequests {
			break
		}
	}
	r.ExpectStatus(t, http.StatusTooManyRequests, "TooManyRequests")
	if r.Header.Get("Retry-After") != "1" {
		t.Fatalf("Retry-After %q", r.Header.Get("Retry-After"))
	}
	// While the slot is taken: system:masters and lease renewals pass.
	s.Do(t, "GET", "/api/v1/namespaces/default", nil, admin).Expect(t, http.StatusOK)
	got := s.Do(t, "GET", lease, nil, bob).Expect(t, http.StatusOK).Map(t)
	got["spec"].(map[string]any)["holderIdentity"] = "b"
	s.Do(t, "PUT", lease, got, bob).Expect(t, http.StatusOK)
	// ... and the slot is still taken for the rest.
	s.Do(t, "GET", "/api/v1/namespaces/default", nil, bob).ExpectStatus(t, http.StatusTooManyRequests, "TooManyRequests")
	// Mutating requests have their own limit.
	s.Do(t, "POST", "/api/v1/namespaces/default/configmaps", `{"metadata":{"name":"m"}}`, bob).Expect(t, http.StatusCreated)
	wg.Wait()
	s.Do(t, "GET", "/api/v1/namespaces/default", nil, bob).Expect(t, http.StatusOK)
}

// TestLimits_RequestTimeout: a request running past --request-timeout gets 504.
func TestLimits_RequestTimeout(t *testing.T) {
	s := framework.Start(t, func(o *options.Options) { o.Generic.RequestTimeout = 500 * time.Millisecond })
	start := time.Now()
	s.Do(t, "GET", slowList, nil).ExpectStatus(t, http.StatusGatewayTimeout, "Timeout")
	if d := time.Since(start); d > 2500*time.Millisecond {
		t.Fatalf("timed out after %v, want about 500ms", d)
	}
	// Watches are not cut by it.
	w := openWatch(t, s, "/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=2")
	defer w.Close()
	s.Do(t, "POST", "/api/v1/namespaces/default/configmaps", `{"metadata":{"name":"late"}}`).Expect(t, http.StatusCreated)
	time.Sleep(700 * time.Millisecond)
	s.Do(t, "PATCH", "/api/v1/namespaces/default/configmaps/late", `{"data":{"a":"b"}}`, mergePatch).Expect(t, http.StatusOK)
	if e := w.Next(5 * time.Second); e.Type != "ADDED" {
		t.Fatalf("first event %v", e.Type)
	}
	if e := w.Next(5 * time.Second); e.Type != "MODIFIED" {
		t.Fatalf("event after the request timeout: %v", e.Type)
	}
}

// TestFeatureGates: turning a gate off turns its feature off.
func TestFeatureGates(t *testing.T) {
	s := framework.Start(t, func(o *options.Options) {
		if err := o.Features.Set("DryRun=false,APIListChunking=false"); err != nil {
			t.Fatal(err)
		}
	})
	cm := "/api/v1/namespaces/default/configmaps"
	s.Do(t, "POST", cm+"?dryRun=All", `{"metadata":{"name":"d"}}`).ExpectStatus(t, http.StatusBadRequest, "BadRequest")
	s.Do(t, "GET", cm+"/d", nil).ExpectStatus(t, http.StatusNotFound, "NotFound")
	for _, n := range []string{"a", "b", "c"} {
		s.Do(t, "POST", cm, `{"metadata":{"name":"`+n+`"}}`).Expect(t, http.StatusCreated)
	}
	s.Do(t, "DELETE", cm+"/a", `{"dryRun":["All"]}`).ExpectStatus(t, http.StatusBadRequest, "BadRequest")
	l := s.Do(t, "GET", cm+"?limit=1", nil).Expect(t, http.StatusOK).Map(t)
	if n := len(l["items"].([]any)); n != 3 || get(l, "metadata", "continue") != nil {
		t.Fatalf("with APIListChunking off, limit=1 gave %d items, metadata %v", n, l["metadata"])
	}

	s2 := framework.Start(t, func(o *options.Options) { o.Features.Set("RemainingItemCount=false") })
	for _, n := range []string{"a", "b", "c"} {
		s2.Do(t, "POST", cm, `{"metadata":{"name":"`+n+`"}}`).Expect(t, http.StatusCreated)
	}
	l = s2.Do(t, "GET", cm+"?limit=1", nil).Expect(t, http.StatusOK).Map(t)
	if get(l, "metadata", "continue") == nil || get(l, "metadata", "remainingItemCount") != nil {
		t.Fatalf("with RemainingItemCount off: metadata %v", l["metadata"])
	}
	if err := options.NewFeatureGate().Set("NoSuchGate=true"); err == nil {
		t.Fatal("an unknown gate was accepted")
	}
}
