package e2e

import (
	"bufio"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"platform.io/platform/test/e2e/framework"
)

const cmPath = "/api/v1/namespaces/default/configmaps"

// waitReadyzFails polls /readyz until it reports the shutdown check failing.
func waitReadyzFails(t *testing.T, s *Server, c *http.Client) {
	t.Helper()
	Eventually(t, 2*time.Second, "/readyz fails with the shutdown check", func() string {
		resp, body, err := call(c, "GET", s.URL+"/readyz?verbose", nil)
		if err == nil && resp.StatusCode == http.StatusInternalServerError && strings.Contains(string(body), "[-]shutdown failed") {
			return ""
		}
		return describe(resp, body, err)
	})
}

// TestShutdownDelayKeepsServing: after SIGTERM /readyz fails at once while
// /healthz and /livez pass, and requests (writes, and an open watch) are
// served normally for --shutdown-delay-duration; then the port closes and
// the process exits 0.
func TestShutdownDelayKeepsServing(t *testing.T) {
	t.Parallel()
	const delay = 3 * time.Second
	s := StartServerWith(t, ServerConfig{Args: []string{"--shutdown-delay-duration", delay.String()}})
	c := s.client(t, 5*time.Second)
	w := openWatch(t, s.client(t, 0), s.URL+cmPath)

	sent := time.Now()
	s.Signal(t, syscall.SIGTERM)
	waitReadyzFails(t, s, c)
	readyzFailed := time.Since(sent)
	for _, p := range []string{"/healthz", "/livez"} {
		if resp, body, err := call(c, "GET", s.URL+p, nil); err != nil || resp.StatusCode != http.StatusOK {
			t.Errorf("%s during the delay: %s", p, describe(resp, body, err))
		}
	}

	// Write until the server stops answering: every write must succeed
	// until then, and the server must answer for the whole delay.
	var written []string
	var ackedAt []time.Duration
	var lastOK time.Duration
	var firstFailure string
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for n := 0; ; n++ {
		name := fmt.Sprintf("during-delay-%d", n)
		resp, body, err := call(c, "POST", s.URL+cmPath, configMap(name))
		if err != nil {
			firstFailure = err.Error()
			break
		}
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("write %d after %v: %s", n, time.Since(sent), describe(resp, body, err))
		}
		written = append(written, name)
		lastOK = time.Since(sent)
		ackedAt = append(ackedAt, lastOK)
		<-tick.C
	}
	if lastOK < delay-500*time.Millisecond {
		t.Errorf("the last write was served %v after SIGTERM, want about %v (the delay); then: %s", lastOK, delay, firstFailure)
	}
	// The watch sees every write in order. Only the events of writes
	// acknowledged at the very end of the delay may be cut off when the
	// watches close (a client gets them by resuming from its last
	// resourceVersion); any earlier one missing is a failure.
	for i, name := range written {
		var e watchEvent
		var open bool
		select {
		case e, open = <-w.events:
		case <-time.After(5 * time.Second):
			t.Fatalf("no watch event for %s within 5s", name)
		}
		if !open {
			if ackedAt[i] < delay-500*time.Millisecond {
				t.Fatalf("the watch ended before the event of %s, acknowledged %v after SIGTERM (the delay is %v)", name, ackedAt[i], delay)
			}
			break
		}
		if e.Type != "ADDED" || e.Object.Metadata.Name != name {
			t.Fatalf("watch event %s %s, want ADDED %s", e.Type, e.Object.Metadata.Name, name)
		}
	}
	if code := s.WaitExit(t, 15*time.Second); code != 0 {
		t.Errorf("exit code %d, want 0", code)
	}
	exited := time.Since(sent)
	if exited < delay {
		t.Errorf("exited %v after SIGTERM, before the delay of %v", exited, delay)
	}
	if err := <-w.end; err != nil {
		t.Errorf("the watch did not end cleanly: %v", err)
	}
	t.Logf("readyz failed %v after SIGTERM; %d writes served, the last %v after it; then %q; exit 0 after %v",
		readyzFailed, len(written), lastOK, firstFailure, exited)
}

// TestShutdownSendRetryAfter: with --shutdown-send-retry-after, once the
// delay has passed the server keeps its port open while a request is in
// flight and answers new requests 429 with Retry-After and Connection:
// close; the request in flight completes, then the process exits 0.
func TestShutdownSendRetryAfter(t *testing.T) {
	t.Parallel()
	s := StartServerWith(t, ServerConfig{Args: []string{"--shutdown-delay-duration", "1s", "--shutdown-send-retry-after"}})
	c := s.client(t, 5*time.Second)

	// A create whose body is half sent stays in flight, holding the drain.
	// It comes from a plain user: the in-flight gauge it is seen by, like
	// the limits, leaves out system:masters.
	conn := dialTLSAs(t, s, framework.PairCertificate(s.SignClient(t, "e2e-writer")))
	defer conn.Close()
	body, _ := json.Marshal(configMap("in-flight"))
	host := strings.TrimPrefix(s.URL, "https://")
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", cmPath, host, len(body))
	if _, err := conn.Write(body[:len(body)/2]); err != nil {
		t.Fatal(err)
	}
	Eventually(t, 5*time.Second, "the half-sent create is in flight", func() string {
		resp, data, err := call(c, "GET", s.URL+"/metrics", nil)
		if err != nil {
			return err.Error()
		}
		if m := regexp.MustCompile(`(?m)^apiserver_current_inflight_requests\{request_kind="mutating"\} 1$`).Find(data); m == nil {
			return "no mutating request in flight yet (HTTP " + resp.Status + ")"
		}
		return ""
	})

	sent := time.Now()
	s.Signal(t, syscall.SIGTERM)
	var refused *http.Response
	var refusedBody []byte
	Eventually(t, 5*time.Second, "a new request is refused with 429", func() string {
		resp, data, err := call(c, "GET", s.URL+cmPath, nil)
		if err != nil {
			return err.Error()
		}
		if resp.StatusCode != http.StatusTooManyRequests {
			return describe(resp, data, err)
		}
		refused, refusedBody = resp, data
		return ""
	})
	refusedAfter := time.Since(sent)
	if refusedAfter < time.Second {
		t.Errorf("429 came %v after SIGTERM, within the delay of 1s", refusedAfter)
	}
	if got := refused.Header.Get("Retry-After"); got != "5" {
		t.Errorf("Retry-After %q, want 5", got)
	}
	if !refused.Close {
		t.Errorf("the 429 does not close the connection (Connection: %q)", refused.Header.Get("Connection"))
	}
	var st struct {
		Kind, Reason, Message string
		Code                  int
	}
	if err := json.Unmarshal(refusedBody, &st); err != nil || st.Kind != "Status" || st.Code != 429 || st.Reason != "TooManyRequests" || !strings.Contains(st.Message, "shutting down") {
		t.Errorf("429 body is not a TooManyRequests Status saying the server shuts down: %s", refusedBody)
	}
	if resp, data, err := call(c, "GET", s.URL+"/readyz", nil); err != nil || resp.StatusCode != http.StatusInternalServerError {
		t.Errorf("/readyz while draining: %s, want 500", describe(resp, data, err))
	}
	if !s.Running() {
		t.Fatal("the process exited while a request was in flight")
	}

	if _, err := conn.Write(body[len(body)/2:]); err != nil {
		t.Fatalf("send the rest of the in-flight request: %v", err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("the in-flight request got no answer: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Errorf("the in-flight create answered %s, want 201", resp.Status)
	}
	if code := s.WaitExit(t, 15*time.Second); code != 0 {
		t.Errorf("exit code %d, want 0", code)
	}
	t.Logf("429 with Retry-After %v after SIGTERM; the in-flight create finished with %s; exit 0 after %v",
		refusedAfter, resp.Status, time.Since(sent))
}

// dialTLS opens a TLS connection to s speaking HTTP/1.1.
func dialTLS(t *testing.T, s *Server) *tls.Conn {
	t.Helper()
	return dialTLSAs(t, s, s.ID.Certificate())
}

// dialTLSAs is dialTLS presenting cert.
func dialTLSAs(t *testing.T, s *Server, cert tls.Certificate) *tls.Conn {
	t.Helper()
	pem, err := os.ReadFile(filepath.Join(s.CertDir, "apiserver.crt"))
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pem)
	conn, err := tls.Dial("tcp", strings.TrimPrefix(s.URL, "https://"), &tls.Config{RootCAs: pool, NextProtos: []string{"http/1.1"},
		Certificates: []tls.Certificate{cert}})
	if err != nil {
		t.Fatal(err)
	}
	return conn
}

// TestShutdownWatchGracePeriod: open watches end cleanly (the stream ends,
// it is not cut) after SIGTERM: at once by default, at the end of
// --shutdown-watch-termination-grace-period when it is set; exit code 0.
func TestShutdownWatchGracePeriod(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		grace    time.Duration
		min, max time.Duration
	}{
		{0, 0, 1500 * time.Millisecond},
		{3 * time.Second, 3 * time.Second, 6 * time.Second},
	} {
		t.Run(tc.grace.String(), func(t *testing.T) {
			t.Parallel()
			s := StartServerWith(t, ServerConfig{Args: []string{"--shutdown-watch-termination-grace-period", tc.grace.String()}})
			c := s.client(t, 5*time.Second)
			w := openWatch(t, s.client(t, 0), s.URL+cmPath)
			if resp, body, err := call(c, "POST", s.URL+cmPath, configMap("before")); err != nil || resp.StatusCode != http.StatusCreated {
				t.Fatalf("create: %s", describe(resp, body, err))
			}
			w.next(t, 5*time.Second)

			sent := time.Now()
			s.Signal(t, syscall.SIGTERM)
			var closed time.Duration
			select {
			case err := <-w.end:
				closed = time.Since(sent)
				if err != nil {
					t.Errorf("the watch did not end cleanly: %v", err)
				}
			case <-time.After(tc.max + 5*time.Second):
				t.Fatalf("the watch is still open %v after SIGTERM", tc.max+5*time.Second)
			}
			if closed < tc.min || closed > tc.max {
				t.Errorf("the watch ended %v after SIGTERM, want between %v and %v", closed, tc.min, tc.max)
			}
			if code := s.WaitExit(t, 15*time.Second); code != 0 {
				t.Errorf("exit code %d, want 0", code)
			}
			t.Logf("grace %v: the watch ended cleanly %v after SIGTERM; exit 0 after %v", tc.grace, closed, time.Since(sent))
		})
	}
}
