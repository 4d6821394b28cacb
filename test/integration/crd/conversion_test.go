package crd

import (
	"bufio"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/crd/conversion"
	"platform.io/platform/pkg/component/certs"
	"platform.io/platform/test/integration/framework"
)

// hostPortHook is a conversion webhook for backends.conv.example.com:
// v1 keeps spec.hostPort ("db:5432"), v2 spec.host and spec.port; both
// have spec.replicas. It refuses a review that is not
// apiextensions.platform.io/v1, and answers in upstream's group, as a
// webhook written with upstream's types would. Its mode makes it answer
// wrongly.
type hostPortHook struct {
	mu sync.Mutex
	// mode is "" (convert), "count", "apiVersion" or "name".
	mode    string
	reviews []conversion.Request
}

func (h *hostPortHook) setMode(m string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.mode = m
}

// requests returns the number of reviews received and their sizes.
func (h *hostPortHook) requests() (int, []int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	sizes := make([]int, len(h.reviews))
	for i, r := range h.reviews {
		sizes[i] = len(r.Objects)
	}
	return len(h.reviews), sizes
}

func (h *hostPortHook) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var review conversion.Review
	if err := json.Unmarshal(body, &review); err != nil || review.APIVersion != "apiextensions.platform.io/v1" || review.Kind != "ConversionReview" || review.Request == nil {
		http.Error(w, "not an apiextensions.platform.io/v1 ConversionReview", http.StatusBadRequest)
		return
	}
	h.mu.Lock()
	h.reviews = append(h.reviews, *review.Request)
	mode := h.mode
	h.mu.Unlock()
	resp := &conversion.Response{UID: review.Request.UID}
	resp.Result.Status = "Success"
	for _, raw := range review.Request.Objects {
		var o map[string]any
		if err := json.Unmarshal(raw, &o); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		convertHostPort(o, review.Request.DesiredAPIVersion)
		switch mode {
		case "apiVersion":
			o["apiVersion"] = "conv.example.com/v3"
		case "name":
			o["metadata"].(map[string]any)["name"] = "renamed"
		}
		b, _ := json.Marshal(o)
		resp.ConvertedObjects = append(resp.ConvertedObjects, b)
	}
	if mode == "count" {
		resp.ConvertedObjects = append(resp.ConvertedObjects, resp.ConvertedObjects[0])
	}
	w.Header().Set("Content-Type", "application/json")
	answer := metav1.TypeMeta{APIVersion: conversion.UpstreamGroup + "/v1", Kind: "ConversionReview"}
	_ = json.NewEncoder(w).Encode(&conversion.Review{TypeMeta: answer, Response: resp})
}

// convertHostPort moves o's spec to version to, and labels it with the
// version it came from (a webhook may change labels).
func convertHostPort(o map[string]any, to string) {
	from := o["apiVersion"].(string)
	spec, _ := o["spec"].(map[string]any)
	switch to {
	case "conv.example.com/v2":
		if hp, ok := spec["hostPort"].(string); ok {
			i := strings.LastIndex(hp, ":")
			port, _ := strconv.Atoi(hp[i+1:])
			o["spec"] = map[string]any{"host": hp[:i], "port": port}
		}
	case "conv.example.com/v1":
		o["spec"] = map[string]any{"hostPort": fmt.Sprintf("%v:%v", spec["host"], spec["port"])}
	}
	if r, ok := spec["replicas"]; ok {
		o["spec"].(map[string]any)["replicas"] = r
	}
	o["apiVersion"] = to
	m := o["metadata"].(map[string]any)
	labels, _ := m["labels"].(map[string]any)
	if labels == nil {
		labels = map[string]any{}
	}
	labels["converted-from"] = strings.TrimPrefix(from, "conv.example.com/")
	m["labels"] = labels
}

// startHook serves h over HTTPS on 127.0.0.1 with a CA of its own.
func startHook(t *testing.T, h http.Handler) (*httptest.Server, []byte) {
	t.Helper()
	ca, err := certs.NewCA("conversion-test-ca")
	if err != nil {
		t.Fatal(err)
	}
	pair, err := certs.NewServing(ca, "conversion-webhook", nil)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := tls.X509KeyPair(pair.CertPEM, pair.KeyPEM)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(h)
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{cert}}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv, ca.CertPEM
}

// hostPortDefinition is backends.conv.example.com: v1 (storage) and v2,
// both with the status subresource, converted by the webhook at url.
func hostPortDefinition(url string, caBundle []byte) map[string]any {
	status := map[string]any{"type": "object", "properties": map[string]any{"phase": map[string]any{"type": "string"}, "replicas": map[string]any{"type": "integer"}}}
	version := func(name string, storage bool, spec map[string]any) map[string]any {
		spec["replicas"] = map[string]any{"type": "integer"}
		return map[string]any{"name": name, "served": true, "storage": storage,
			"subresources": map[string]any{"status": map[string]any{},
				"scale": map[string]any{"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas"}},
			"schema": map[string]any{"openAPIV3Schema": map[string]any{"type": "object", "properties": map[string]any{
				"spec": map[string]any{"type": "object", "properties": spec}, "status": status}}}}
	}
	return map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": "backends.conv.example.com"},
		"spec": map[string]any{
			"group": "conv.example.com", "scope": "Namespaced",
			"names": map[string]any{"plural": "backends", "kind": "Backend"},
			"versions": []any{
				version("v1", true, map[string]any{"hostPort": map[string]any{"type": "string"}}),
				version("v2", false, map[string]any{"host": map[string]any{"type": "string"}, "port": map[string]any{"type": "integer"}}),
			},
			"conversion": map[string]any{"strategy": "Webhook", "webhook": map[string]any{
				"conversionReviewVersions": []string{"v1"},
				"clientConfig":             map[string]any{"url": url + "/convert", "caBundle": caBundle}}},
		},
	}
}

// TestConversionWebhook: every read and write of v2 converts through the
// webhook; objects are stored in v1; lists are converted in one review per
// chunk; a webhook that fails or answers wrongly fails the request with
// 500 and stores nothing.
func TestConversionWebhook(t *testing.T) {
	s := framework.Start(t)
	hook := &hostPortHook{}
	srv, ca := startHook(t, hook)
	install(t, s, hostPortDefinition(srv.URL, ca))
	v1 := "/apis/conv.example.com/v1/namespaces/default/backends"
	v2 := "/apis/conv.example.com/v2/namespaces/default/backends"
	framework.Eventually(t, 10*time.Second, "v2 served", func() bool {
		return s.Do(t, "GET", v2, nil).Code == http.StatusOK
	})

	// Create in v2: the answer is v2, the object is stored as v1.
	created := s.Do(t, "POST", v2, map[string]any{"apiVersion": "conv.example.com/v2", "kind": "Backend",
		"metadata": map[string]any{"name": "db"}, "spec": map[string]any{"host": "db.local", "port": 5432}}).Expect(t, http.StatusCreated).Map(t)
	if created["apiVersion"] != "conv.example.com/v2" || created["spec"].(map[string]any)["host"] != "db.local" {
		t.Errorf("create answered %v", created)
	}
	// The answer is the stored object converted back, as upstream's: the
	// webhook's last label says v1.
	if labels, _ := meta(created)["labels"].(map[string]any); labels["converted-from"] != "v1" {
		t.Errorf("create answered labels %v, not those of the stored object read back", labels)
	}
	stored := s.Do(t, "GET", v1+"/db", nil).Expect(t, http.StatusOK).Map(t)
	if got := stored["spec"]; fmt.Sprint(got) != "map[hostPort:db.local:5432]" {
		t.Errorf("stored as v1 spec %v", got)
	}
	if labels, _ := meta(stored)["labels"].(map[string]any); labels["converted-from"] != "v2" {
		t.Errorf("labels set by the webhook not kept: %v", meta(stored)["labels"])
	}
	got := s.Do(t, "GET", v2+"/db", nil).Expect(t, http.StatusOK).Map(t)
	if fmt.Sprint(got["spec"]) != "map[host:db.local port:5432]" || got["apiVersion"] != "conv.example.com/v2" {
		t.Errorf("read in v2: %v", got)
	}
	if meta(got)["uid"] != meta(stored)["uid"] || meta(got)["resourceVersion"] != meta(stored)["resourceVersion"] {
		t.Errorf("metadata differs between versions: %v and %v", meta(got), meta(stored))
	}

	// A list in v2 is converted in one review, a chunked one in one per chunk.
	for _, n := range []string{"cache", "queue"} {
		s.Do(t, "POST", v1, map[string]any{"apiVersion": "conv.example.com/v1", "kind": "Backend",
			"metadata": map[string]any{"name": n}, "spec": map[string]any{"hostPort": n + ":80"}}).Expect(t, http.StatusCreated)
	}
	before, _ := hook.requests()
	list := s.Do(t, "GET", v2, nil).Expect(t, http.StatusOK).Map(t)
	after, sizes := hook.requests()
	if after != before+1 || sizes[after-1] != 3 {
		t.Errorf("list made %d reviews, the last of %v objects", after-before, sizes[after-1])
	}
	for _, it := range list["items"].([]any) {
		it := it.(map[string]any)
		if it["apiVersion"] != "conv.example.com/v2" || it["spec"].(map[string]any)["port"] == nil {
			t.Errorf("list item %v", it)
		}
	}
	first := s.Do(t, "GET", v2+"?limit=2", nil).Expect(t, http.StatusOK).Map(t)
	cont, _ := meta(first)["continue"].(string)
	second := s.Do(t, "GET", v2+"?limit=2&continue="+cont, nil).Expect(t, http.StatusOK).Map(t)
	if names := append(items(t, first), items(t, second)...); strings.Join(names, ",") != "cache,db,queue" {
		t.Errorf("chunks %v", names)
	}
	last, sizes := hook.requests()
	if last != after+2 || sizes[last-2] != 2 || sizes[last-1] != 1 {
		t.Errorf("chunked list: reviews of %v objects", sizes[after:])
	}
	if port := second["items"].([]any)[0].(map[string]any)["spec"].(map[string]any)["port"]; port != float64(80) {
		t.Errorf("second chunk's port %v", port)
	}

	// Watch in v2 sees changes written in v1, converted.
	rv := meta(list)["resourceVersion"].(string)
	events := watchObjects(t, s, v2+"?watch=true&resourceVersion="+rv)
	s.Do(t, "POST", v1, map[string]any{"apiVersion": "conv.example.com/v1", "kind": "Backend",
		"metadata": map[string]any{"name": "web"}, "spec": map[string]any{"hostPort": "web:8080"}}).Expect(t, http.StatusCreated)
	select {
	case e := <-events:
		if e.Type != "ADDED" || e.Object["apiVersion"] != "conv.example.com/v2" || fmt.Sprint(e.Object["spec"]) != "map[host:web port:8080]" {
			t.Errorf("watch event %s %v", e.Type, e.Object)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no watch event in v2")
	}

	// The status subresource written in v2 changes only the status, stored in v1.
	got["status"] = map[string]any{"phase": "Ready"}
	got["spec"] = map[string]any{"host": "ignored", "port": 1}
	s.Do(t, "PUT", v2+"/db/status", got).Expect(t, http.StatusOK)
	stored = s.Do(t, "GET", v1+"/db", nil).Expect(t, http.StatusOK).Map(t)
	if fmt.Sprint(stored["status"]) != "map[phase:Ready]" || fmt.Sprint(stored["spec"]) != "map[hostPort:db.local:5432]" {
		t.Errorf("after a v2 status write, v1 holds spec %v status %v", stored["spec"], stored["status"])
	}
	// The scale subresource of v2 reads and writes through the webhook.
	scale := s.Do(t, "GET", v2+"/db/scale", nil).Expect(t, http.StatusOK).Map(t)
	scale["spec"] = map[string]any{"replicas": 3}
	s.Do(t, "PUT", v2+"/db/scale", scale).Expect(t, http.StatusOK)
	stored = s.Do(t, "GET", v1+"/db", nil).Expect(t, http.StatusOK).Map(t)
	if fmt.Sprint(stored["spec"]) != "map[hostPort:db.local:5432 replicas:3]" {
		t.Errorf("after a v2 scale write, v1 holds spec %v", stored["spec"])
	}
	// A merge patch in v2 converts the stored object and back.
	s.Do(t, "PATCH", v2+"/db", `{"spec":{"port":6432}}`, framework.Header{"Content-Type": "application/merge-patch+json"}).Expect(t, http.StatusOK)
	if hp := s.Do(t, "GET", v1+"/db", nil).Expect(t, http.StatusOK).Map(t)["spec"]; fmt.Sprint(hp) != "map[hostPort:db.local:6432 replicas:3]" {
		t.Errorf("after a v2 patch, v1 holds %v", hp)
	}

	// Each call is timed, by definition, versions and outcome.
	metrics := string(s.Do(t, "GET", "/metrics", nil).Expect(t, http.StatusOK).Body)
	for _, series := range []string{
		`apiserver_crd_conversion_webhook_duration_seconds_count{crd_name="backends.conv.example.com",from_version="v2",succeeded="true",to_version="v1"}`,
		`apiserver_crd_conversion_webhook_duration_seconds_count{crd_name="backends.conv.example.com",from_version="v1",succeeded="true",to_version="v2"}`,
	} {
		if !strings.Contains(metrics, series) {
			t.Errorf("no %s in /metrics", series)
		}
	}

	// Wrong answers: the request fails with 500 naming the webhook's
	// conversion, and nothing is stored.
	for _, mode := range []string{"count", "apiVersion", "name"} {
		hook.setMode(mode)
		st := s.Do(t, "GET", v2+"/db", nil).ExpectStatus(t, http.StatusInternalServerError, "InternalError")
		if msg, _ := st["message"].(string); !strings.HasPrefix(msg, "Internal error occurred: conversion webhook for conv.example.com/v1, Kind=Backend ") {
			t.Errorf("%s: message %q", mode, msg)
		}
		s.Do(t, "GET", v2, nil).ExpectStatus(t, http.StatusInternalServerError, "InternalError")
		s.Do(t, "POST", v2, map[string]any{"apiVersion": "conv.example.com/v2", "kind": "Backend",
			"metadata": map[string]any{"name": "bad-" + strings.ToLower(mode)}, "spec": map[string]any{"host": "x", "port": 1}}).
			ExpectStatus(t, http.StatusInternalServerError, "InternalError")
		s.Do(t, "GET", v1+"/bad-"+strings.ToLower(mode), nil).Expect(t, http.StatusNotFound)
		if mode == "count" {
			// A watch in v2 ends with an ERROR event carrying the 500.
			rv := meta(s.Do(t, "GET", v1, nil).Expect(t, http.StatusOK).Map(t))["resourceVersion"].(string)
			events := watchObjects(t, s, v2+"?watch=true&resourceVersion="+rv)
			s.Do(t, "POST", v1, map[string]any{"apiVersion": "conv.example.com/v1", "kind": "Backend",
				"metadata": map[string]any{"name": "watched"}, "spec": map[string]any{"hostPort": "w:1"}}).Expect(t, http.StatusCreated)
			select {
			case e := <-events:
				if e.Type != "ERROR" || e.Object["code"] != float64(500) || !strings.Contains(fmt.Sprint(e.Object["message"]), "returned 2 objects, expected 1") {
					t.Errorf("watch event with a failing webhook: %s %v", e.Type, e.Object)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("no watch event in v2 with a failing webhook")
			}
		}
	}
	hook.setMode("")

	// Webhook down: v2 fails, nothing is stored, v1 keeps working.
	srv.Close()
	st := s.Do(t, "POST", v2, map[string]any{"apiVersion": "conv.example.com/v2", "kind": "Backend",
		"metadata": map[string]any{"name": "lost"}, "spec": map[string]any{"host": "x", "port": 1}}).
		ExpectStatus(t, http.StatusInternalServerError, "InternalError")
	if msg, _ := st["message"].(string); !strings.HasPrefix(msg, "Internal error occurred: conversion webhook for conv.example.com/v2, Kind=Backend failed: Post \""+srv.URL+"/convert\"") {
		t.Errorf("webhook down: message %q", msg)
	}
	s.Do(t, "GET", v1+"/lost", nil).Expect(t, http.StatusNotFound)
	s.Do(t, "GET", v2+"/db", nil).ExpectStatus(t, http.StatusInternalServerError, "InternalError")
	s.Do(t, "GET", v1+"/db", nil).Expect(t, http.StatusOK)
}

type watchEvent struct {
	Type   string         `json:"type"`
	Object map[string]any `json:"object"`
}

// watchObjects streams the events of a watch, bookmarks left out.
func watchObjects(t *testing.T, s *framework.Server, path string) <-chan watchEvent {
	t.Helper()
	resp, err := http.Get(s.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("watch: HTTP %d", resp.StatusCode)
	}
	t.Cleanup(func() { resp.Body.Close() })
	out := make(chan watchEvent, 100)
	go func() {
		defer close(out)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var e watchEvent
			if json.Unmarshal(sc.Bytes(), &e) == nil && e.Type != "BOOKMARK" {
				out <- e
			}
		}
	}()
	return out
}
