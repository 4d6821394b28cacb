package openapi

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	openapiv2 "github.com/google/gnostic-models/openapiv2"
	openapiv3 "github.com/google/gnostic-models/openapiv3"
	"google.golang.org/protobuf/proto"
)

// fetch sends a request with the given headers ("Name: value") and returns
// the response with its body read. Compression is left to the test.
func fetch(t *testing.T, srv *httptest.Server, method, path string, headers ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept-Encoding", "identity")
	for _, h := range headers {
		k, v, _ := strings.Cut(h, ": ")
		req.Header.Set(k, v)
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

func newServer(t *testing.T) (*Spec, *httptest.Server) {
	s := built(t)
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	return s, srv
}

func TestServeV2(t *testing.T) {
	s, srv := newServer(t)
	resp, body := fetch(t, srv, "GET", "/openapi/v2")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" || !bytes.Equal(body, s.v2.json) {
		t.Fatalf("default: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	// The Accept header kubectl 1.32 sends, and the dotted spelling.
	for _, accept := range []string{mimeV2ProtoDeprecated, mimeV2Proto + ", application/json"} {
		resp, body = fetch(t, srv, "GET", "/openapi/v2", "Accept: "+accept)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != mimeV2Proto {
			t.Fatalf("%s: %d %s", accept, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		var doc openapiv2.Document
		if err := proto.Unmarshal(body, &doc); err != nil || doc.Swagger != "2.0" {
			t.Fatalf("%s: body is not a protobuf document: %v", accept, err)
		}
	}
	etag := resp.Header.Get("Etag")
	if etag != `"`+s.v2.hash+`"` {
		t.Errorf("ETag %s", etag)
	}
	if resp, _ = fetch(t, srv, "GET", "/openapi/v2", "If-None-Match: "+etag); resp.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match: %d", resp.StatusCode)
	}
	if resp, _ = fetch(t, srv, "GET", "/openapi/v2", "Accept: text/html"); resp.StatusCode != http.StatusNotAcceptable {
		t.Errorf("Accept text/html: %d", resp.StatusCode)
	}
	if resp, _ = fetch(t, srv, "POST", "/openapi/v2"); resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d", resp.StatusCode)
	}
	if resp, body = fetch(t, srv, "HEAD", "/openapi/v2"); resp.StatusCode != 200 || len(body) != 0 {
		t.Errorf("HEAD: %d with %d bytes", resp.StatusCode, len(body))
	}
}

func TestServeGzip(t *testing.T) {
	s, srv := newServer(t)
	resp, body := fetch(t, srv, "GET", "/openapi/v2", "Accept-Encoding: gzip")
	if resp.Header.Get("Content-Encoding") != "gzip" {
		t.Fatal("no gzip encoding")
	}
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil || !bytes.Equal(plain, s.v2.json) {
		t.Errorf("gzip body does not decompress to the document: %v", err)
	}
}

func TestServeV3(t *testing.T) {
	s, srv := newServer(t)
	resp, body := fetch(t, srv, "GET", "/openapi/v3")
	if resp.StatusCode != 200 || !bytes.Equal(body, s.discovery.json) {
		t.Fatalf("discovery: %d", resp.StatusCode)
	}
	for key, doc := range s.v3 {
		path := "/openapi/v3/" + key
		resp, body = fetch(t, srv, "GET", path+"?hash="+doc.hash)
		if resp.StatusCode != 200 || !bytes.Equal(body, doc.json) || resp.Header.Get("Cache-Control") != "public, immutable" || resp.Header.Get("Expires") == "" {
			t.Errorf("%s with hash: %d %q", key, resp.StatusCode, resp.Header.Get("Cache-Control"))
		}
		resp, _ = fetch(t, srv, "GET", path+"?hash=stale")
		if resp.StatusCode != http.StatusMovedPermanently || resp.Header.Get("Location") != path+"?hash="+doc.hash {
			t.Errorf("%s with a stale hash: %d to %s", key, resp.StatusCode, resp.Header.Get("Location"))
		}
		resp, body = fetch(t, srv, "GET", path, "Accept: "+mimeV3ProtoDeprecated)
		var pb openapiv3.Document
		if resp.Header.Get("Content-Type") != mimeV3Proto || proto.Unmarshal(body, &pb) != nil || pb.Openapi != "3.0.0" {
			t.Errorf("%s as protobuf: %s", key, resp.Header.Get("Content-Type"))
		}
		resp, _ = fetch(t, srv, "GET", path)
		if resp.Header.Get("Cache-Control") != "no-cache, private" {
			t.Errorf("%s without hash: Cache-Control %q", key, resp.Header.Get("Cache-Control"))
		}
	}
	if resp, _ = fetch(t, srv, "GET", "/openapi/v3/apis/nothing/v1"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown group version: %d", resp.StatusCode)
	}
}

func TestNegotiate(t *testing.T) {
	protos := []string{mimeV2Proto, mimeV2ProtoDeprecated}
	for accept, want := range map[string][2]bool{
		"":                                     {false, true},
		"*/*":                                  {false, true},
		mimeV2ProtoDeprecated:                  {true, true},
		mimeV2Proto + ";q=0, application/json": {false, true},
		"application/vnd.kubernetes.protobuf, application/json": {false, true},
		"text/plain": {false, false},
	} {
		asProto, ok := negotiate(accept, protos)
		if [2]bool{asProto, ok} != want {
			t.Errorf("negotiate(%q) = %v, %v; want %v", accept, asProto, ok, want)
		}
	}
}
