package apiserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/test/integration/framework"
)

// cacheModes are the two ways the server may serve lists and watches: from
// the watch cache (the default) and straight from etcd (--watch-cache=false).
var cacheModes = []struct {
	name string
	opt  framework.Option
}{
	{"watchcache", func(o *options.Options) { o.API.WatchCache = true }},
	{"etcd", func(o *options.Options) { o.API.WatchCache = false }},
}

// eachCacheMode runs f as a parallel subtest per cache mode, with a server
// started with that mode and the extra options.
func eachCacheMode(t *testing.T, f func(t *testing.T, s *framework.Server), opts ...framework.Option) {
	t.Helper()
	for _, m := range cacheModes {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			s := framework.Start(t, append([]framework.Option{m.opt}, opts...)...)
			f(t, s)
		})
	}
}

// watchEvent is one decoded WatchEvent.
type watchEvent struct {
	Type   string         `json:"type"`
	Object map[string]any `json:"object"`
	line   string
}

func (e watchEvent) name() string { n, _ := get(e.Object, "metadata", "name").(string); return n }

func (e watchEvent) namespace() string {
	n, _ := get(e.Object, "metadata", "namespace").(string)
	return n
}

func (e watchEvent) rv() string {
	v, _ := get(e.Object, "metadata", "resourceVersion").(string)
	return v
}

func (e watchEvent) String() string {
	if len(e.line) > 600 {
		return e.line[:600] + "..."
	}
	return e.line
}

// streamTransport opens watches: no overall timeout, but the response
// headers must come within 20s.
var streamTransport = &http.Transport{ResponseHeaderTimeout: 20 * time.Second, MaxIdleConnsPerHost: 20}

// watchStream is an open watch: its events arrive on events; end receives
// the reason the stream ended (nil for a clean end of the chunked body).
type watchStream struct {
	t      testing.TB
	path   string
	Code   int
	Header http.Header
	// TransferEncoding of the response, e.g. [chunked].
	TransferEncoding []string
	// Body is the whole body of a response other than 200.
	Body   []byte
	events chan watchEvent
	end    chan error
	ended  bool
	cancel context.CancelFunc
}

// openWatch sends GET path and, on a 200, reads newline-delimited
// WatchEvents in the background. It does not check the status code.
func openWatch(t testing.TB, s *framework.Server, path string) *watchStream {
	t.Helper()
	w, err := tryWatch(t, s, path)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// tryWatch is openWatch returning an error instead of failing t, for use
// from other goroutines.
func tryWatch(t testing.TB, s *framework.Server, path string) (*watchStream, error) {
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "GET", s.URL+path, nil)
	if err != nil {
		cancel()
		return nil, err
	}
	resp, err := (&http.Client{Transport: streamTransport}).Do(req)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("watch %s: %v", path, err)
	}
	w := &watchStream{t: t, path: path, Code: resp.StatusCode, Header: resp.Header, TransferEncoding: resp.TransferEncoding,
		events: make(chan watchEvent, 256), end: make(chan error, 1), cancel: cancel}
	t.Cleanup(w.Close)
	if resp.StatusCode != http.StatusOK {
		w.Body, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
		w.ended = true
		return w, nil
	}
	go w.read(ctx, resp.Body)
	return w, nil
}

// read decodes one WatchEvent per line until the body ends.
func (w *watchStream) read(ctx context.Context, body io.ReadCloser) {
	defer body.Close()
	br := bufio.NewReaderSize(body, 1<<16)
	for {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			if err != nil {
				w.end <- fmt.Errorf("stream ended inside an event (no newline after it): %q: %v", line, err)
				return
			}
			var e watchEvent
			dec := json.NewDecoder(bytes.NewReader(line))
			dec.UseNumber()
			if derr := dec.Decode(&e); derr != nil || dec.More() {
				w.end <- fmt.Errorf("line is not one WatchEvent JSON object: %q (%v)", line, derr)
				return
			}
			e.line = strings.TrimSpace(string(line))
			select {
			case w.events <- e:
			case <-ctx.Done():
				w.end <- ctx.Err()
				return
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = nil
			}
			w.end <- err
			return
		}
	}
}

// Close ends the watch from the client side.
func (w *watchStream) Close() { w.cancel() }

// mustWatch opens a watch and fails unless it is a 200 JSON stream with
// chunked transfer encoding.
func mustWatch(t testing.TB, s *framework.Server, path string) *watchStream {
	t.Helper()
	w := openWatch(t, s, path)
	if w.Code != http.StatusOK {
		t.Fatalf("watch %s: HTTP %d, want 200; body %s", path, w.Code, w.Body)
	}
	if ct := w.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("watch %s: Content-Type %q, want application/json", path, ct)
	}
	if len(w.TransferEncoding) == 0 || w.TransferEncoding[0] != "chunked" {
		t.Fatalf("watch %s: Transfer-Encoding %v, want chunked", path, w.TransferEncoding)
	}
	return w
}

// Next returns the next event, failing t if none comes within timeout or
// the stream ends.
func (w *watchStream) Next(timeout time.Duration) watchEvent {
	w.t.Helper()
	e, ok, err := w.next(timeout)
	if !ok {
		if err != nil {
			w.t.Fatalf("watch %s: no event within %v: %v", w.path, timeout, err)
		}
		w.t.Fatalf("watch %s: no event within %v", w.path, timeout)
	}
	return e
}

// next returns the next event; ok is false on timeout or end, err then says
// why the stream ended (nil for a clean end or a timeout).
func (w *watchStream) next(timeout time.Duration) (e watchEvent, ok bool, err error) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case e := <-w.events:
		return e, true, nil
	case <-timer.C:
		return watchEvent{}, false, nil
	case err := <-w.end:
		// Events read before the end are still queued.
		select {
		case e := <-w.events:
			w.end <- err
			return e, true, nil
		default:
		}
		w.ended = true
		if err == nil {
			err = errors.New("stream ended")
		}
		return watchEvent{}, false, err
	}
}

// Expect returns the next event after checking its type and object name.
func (w *watchStream) Expect(typ, name string) watchEvent {
	w.t.Helper()
	e := w.Next(10 * time.Second)
	if e.Type != typ || e.name() != name {
		w.t.Fatalf("watch %s: got %s, want %s %s", w.path, e, typ, name)
	}
	return e
}

// ExpectSet reads len(want) events and checks they are exactly the wanted
// "TYPE name" pairs in any order.
func (w *watchStream) ExpectSet(want ...string) []watchEvent {
	w.t.Helper()
	var got []string
	var evs []watchEvent
	for range want {
		e := w.Next(10 * time.Second)
		evs = append(evs, e)
		got = append(got, e.Type+" "+e.name())
	}
	sort.Strings(got)
	want = append([]string(nil), want...)
	sort.Strings(want)
	if strings.Join(got, ",") != strings.Join(want, ",") {
		w.t.Fatalf("watch %s: got events %v, want %v", w.path, got, want)
	}
	return evs
}

// ExpectNothing fails if an event arrives within d.
func (w *watchStream) ExpectNothing(d time.Duration) {
	w.t.Helper()
	if e, ok, _ := w.next(d); ok {
		w.t.Fatalf("watch %s: unexpected event %s", w.path, e)
	}
}

// Drain reads events until the stream ends, failing t if it does not end
// cleanly within timeout.
func (w *watchStream) Drain(timeout time.Duration) []watchEvent {
	w.t.Helper()
	deadline := time.Now().Add(timeout)
	var out []watchEvent
	for {
		left := time.Until(deadline)
		if left <= 0 {
			w.t.Fatalf("watch %s: still open after %v; events so far %v", w.path, timeout, out)
		}
		select {
		case e := <-w.events:
			out = append(out, e)
		case err := <-w.end:
			for {
				select {
				case e := <-w.events:
					out = append(out, e)
					continue
				default:
				}
				break
			}
			w.ended = true
			if err != nil {
				w.t.Fatalf("watch %s: stream did not end cleanly: %v; events %v", w.path, err, out)
			}
			return out
		case <-time.After(left):
		}
	}
}

// expectGone checks that a watch from a version whose history is gone fails
// with 410 Expired: as an HTTP 410 Status before the stream starts, or as
// an ERROR event carrying that Status once it has.
func expectGone(t *testing.T, s *framework.Server, path string) {
	t.Helper()
	w := openWatch(t, s, path)
	var st map[string]any
	switch w.Code {
	case http.StatusGone:
		if err := json.Unmarshal(w.Body, &st); err != nil {
			t.Fatalf("410 body is not JSON: %s", w.Body)
		}
	case http.StatusOK:
		e := w.Next(15 * time.Second)
		if e.Type != "ERROR" {
			t.Fatalf("watch %s from a compacted version: first event %s, want ERROR 410", path, e)
		}
		st = e.Object
		// The ERROR ends the stream.
		if rest := w.Drain(10 * time.Second); len(rest) != 0 {
			t.Fatalf("events after ERROR: %v", rest)
		}
	default:
		t.Fatalf("watch %s from a version out of history: HTTP %d, want 410 (or 200 with an ERROR event); body %s", path, w.Code, w.Body)
	}
	if st["kind"] != "Status" || st["reason"] != "Expired" || fmt.Sprint(st["code"]) != "410" || st["status"] != "Failure" {
		t.Fatalf("watch %s from a version out of history: Status %v, want code 410 reason Expired", path, st)
	}
}

// list GETs a collection and returns its item names (as namespace/name for
// objects of other namespaces when all is set), its resourceVersion and the decoded body.
func list(t *testing.T, s *framework.Server, path string) ([]string, string, map[string]any) {
	t.Helper()
	m := s.Do(t, "GET", path, nil).Expect(t, http.StatusOK).Map(t)
	var names []string
	items, _ := m["items"].([]any)
	for _, it := range items {
		names = append(names, metaOf(it.(map[string]any))["name"].(string))
	}
	rv, _ := get(m, "metadata", "resourceVersion").(string)
	if rv == "" {
		t.Fatalf("list %s has no resourceVersion", path)
	}
	return names, rv, m
}

// listRV returns the resourceVersion of a list of path.
func listRV(t *testing.T, s *framework.Server, path string) string {
	t.Helper()
	_, rv, _ := list(t, s, path)
	return rv
}

// rvOf returns metadata.resourceVersion of a decoded object.
func rvOf(t testing.TB, m map[string]any) string {
	t.Helper()
	rv, _ := get(m, "metadata", "resourceVersion").(string)
	if rv == "" {
		t.Fatalf("no resourceVersion in %v", m)
	}
	return rv
}

func atoi(t testing.TB, s string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("resourceVersion %q is not an integer", s)
	}
	return n
}

// q builds a query string from key, value pairs, escaping values.
func q(kv ...string) string {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Add(kv[i], kv[i+1])
	}
	return "?" + v.Encode()
}

// cm is a ConfigMap manifest with labels (JSON object text or "") and one data value.
func cm(name, labels, value string) string {
	if labels == "" {
		labels = "{}"
	}
	return `{"metadata":{"name":"` + name + `","labels":` + labels + `},"data":{"k":"` + value + `"}}`
}

// sampleOf returns the sample of a kind and apiVersion.
func sampleOf(t testing.TB, kind, apiVersion string) sample {
	for _, s := range samples {
		if s.kind == kind && s.apiVersion == apiVersion {
			return s
		}
	}
	t.Fatalf("no sample of %s %s", apiVersion, kind)
	return sample{}
}

// sameNames compares name lists ignoring order.
func sameNames(got, want []string) bool {
	g := append([]string(nil), got...)
	w := append([]string(nil), want...)
	sort.Strings(g)
	sort.Strings(w)
	return strings.Join(g, ",") == strings.Join(w, ",")
}
