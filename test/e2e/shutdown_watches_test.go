package e2e

import (
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestShutdownManyWatchesExitsFast: with default flags (no shutdown delay,
// no watch grace period) and nothing else in flight, the API server exits
// within a second of SIGTERM though clients hold many open watches over
// HTTP/1.1 and HTTP/2, idle keep-alive connections, and connections that
// have not sent a request yet (which net/http's Shutdown alone waits five
// seconds for).
func TestShutdownManyWatchesExitsFast(t *testing.T) {
	t.Parallel()
	const watchesPerProto = 100
	s := StartServer(t)
	h1 := s.client(t, 0)
	h2 := s.client(t, 0)
	h2.Transport.(*http.Transport).ForceAttemptHTTP2 = true
	var watches []*watchStream
	for _, c := range []*http.Client{h1, h2} {
		for range watchesPerProto {
			watches = append(watches, openWatch(t, c, s.URL+cmPath))
		}
	}
	// A request on each client leaves an idle keep-alive connection.
	for _, c := range []*http.Client{s.client(t, 5*time.Second), s.client(t, 5*time.Second)} {
		if resp, body, err := call(c, "GET", s.URL+"/version", nil); err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET /version: %s", describe(resp, body, err))
		}
	}
	// Connections a client opened but has not used yet, as a client's
	// pool may hold.
	for range 3 {
		defer dialTLS(t, s).Close()
	}
	raw, err := net.Dial("tcp", strings.TrimPrefix(s.URL, "https://")) // not even a handshake
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()

	sent := time.Now()
	s.Signal(t, syscall.SIGTERM)
	if code := s.WaitExit(t, 30*time.Second); code != 0 {
		t.Errorf("exit code %d, want 0", code)
	}
	took := time.Since(sent)
	clean := 0
	for _, w := range watches {
		select {
		case err := <-w.end:
			if err == nil {
				clean++
			}
		case <-time.After(time.Second):
		}
	}
	t.Logf("%d watches (%d over HTTP/1.1, %d over HTTP/2), %d ended cleanly; exit 0 %v after SIGTERM",
		len(watches), watchesPerProto, watchesPerProto, clean, took.Round(time.Millisecond))
	if took > time.Second {
		t.Errorf("exited %v after SIGTERM, want within 1s", took)
	}
	if clean != len(watches) {
		t.Errorf("%d of %d watches ended cleanly", clean, len(watches))
	}
}
