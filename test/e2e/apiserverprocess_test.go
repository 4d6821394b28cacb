package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"platform.io/platform/pkg/apiserver/storage/etcdtest"
)

// startEtcd runs an etcd process (Debian's etcd-server) for the test and
// returns its client URL.
func startEtcd(t *testing.T) string {
	t.Helper()
	e, err := etcdtest.StartExternal()
	if err != nil {
		t.Fatalf("start etcd: %v", err)
	}
	t.Cleanup(e.Stop)
	return e.ClientURL
}

// Signal sends sig to the API server process.
func (s *Server) Signal(t testing.TB, sig syscall.Signal) {
	t.Helper()
	if err := s.Server.Signal(sig); err != nil {
		t.Fatalf("signal %v: %v", sig, err)
	}
}

// Kill sends SIGKILL and waits for the exit.
func (s *Server) Kill(t testing.TB) {
	t.Helper()
	if err := s.Server.Kill(); err != nil {
		t.Fatalf("signal %v: %v", syscall.SIGKILL, err)
	}
}

// WaitExit waits up to within for the process to exit and returns its exit
// code.
func (s *Server) WaitExit(t testing.TB, within time.Duration) int {
	t.Helper()
	select {
	case <-s.Exited():
		return s.ExitCode()
	case <-time.After(within):
		t.Fatalf("platform-apiserver did not exit within %v", within)
		return -1
	}
}

// Running reports whether the process has not exited.
func (s *Server) Running() bool {
	select {
	case <-s.Exited():
		return false
	default:
		return true
	}
}

// client returns an HTTP client trusting the server, with the timeout.
func (s *Server) client(t testing.TB, timeout time.Duration) *http.Client {
	t.Helper()
	c, err := s.httpClient()
	if err != nil {
		t.Fatal(err)
	}
	c.Timeout = timeout
	return c
}

// call sends a request with an optional JSON body and returns the
// response with its body read, or the error of the round trip.
func call(c *http.Client, method, url string, body any) (*http.Response, []byte, error) {
	var rd io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return nil, nil, err
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		return nil, nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	return resp, data, err
}

// watchEvent is one decoded event of a JSON watch stream.
type watchEvent struct {
	Type   string `json:"type"`
	Object struct {
		Kind     string `json:"kind"`
		Metadata struct {
			Name            string `json:"name"`
			ResourceVersion string `json:"resourceVersion"`
		} `json:"metadata"`
	} `json:"object"`
}

// watchStream is an open watch.
type watchStream struct {
	events chan watchEvent
	// end receives how the stream ended: nil for a clean end of the body.
	end  chan error
	body io.Closer
}

// openWatch starts a watch of the path (a list path; watch=1 is added) and
// decodes its events in the background.
func openWatch(t testing.TB, c *http.Client, url string) *watchStream {
	t.Helper()
	w, err := dialWatch(c, url)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// dialWatch is openWatch returning the error.
func dialWatch(c *http.Client, url string) (*watchStream, error) {
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	resp, err := c.Get(url + sep + "watch=1")
	if err != nil {
		return nil, fmt.Errorf("watch %s: %w", url, err)
	}
	if resp.StatusCode != http.StatusOK {
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return nil, fmt.Errorf("watch %s: HTTP %d: %s", url, resp.StatusCode, truncateBody(data))
	}
	w := &watchStream{events: make(chan watchEvent, 10000), end: make(chan error, 1), body: resp.Body}
	go func() {
		defer resp.Body.Close()
		dec := json.NewDecoder(bufio.NewReader(resp.Body))
		for {
			var e watchEvent
			if err := dec.Decode(&e); err != nil {
				if err == io.EOF {
					err = nil
				}
				close(w.events)
				w.end <- err
				return
			}
			w.events <- e
		}
	}()
	return w, nil
}

// next returns the next event, failing t after within.
func (w *watchStream) next(t testing.TB, within time.Duration) watchEvent {
	t.Helper()
	select {
	case e, ok := <-w.events:
		if !ok {
			t.Fatalf("watch ended before the next event")
		}
		return e
	case <-time.After(within):
		t.Fatalf("no watch event within %v", within)
		return watchEvent{}
	}
}

func configMap(name string) map[string]any {
	return map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": name}, "data": map[string]string{"k": name}}
}

func describe(resp *http.Response, body []byte, err error) string {
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("HTTP %d: %s", resp.StatusCode, truncateBody(body))
}

func truncateBody(b []byte) string {
	if len(b) > 500 {
		return string(b[:500]) + "..."
	}
	return string(b)
}
