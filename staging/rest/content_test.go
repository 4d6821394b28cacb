package rest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/codec/protobuf"
)

// seen is what a test server received.
type seen struct {
	method, path, contentType, accept, userAgent, auth string
	body                                               []byte
}

// recorder is a server that records each request and answers with reply.
func recorder(t *testing.T, reply http.HandlerFunc) (*httptest.Server, func() seen) {
	var mu sync.Mutex
	var last seen
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		last = seen{r.Method, r.URL.RequestURI(), r.Header.Get("Content-Type"), r.Header.Get("Accept"),
			r.Header.Get("User-Agent"), r.Header.Get("Authorization"), body}
		mu.Unlock()
		reply(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, func() seen {
		mu.Lock()
		defer mu.Unlock()
		return last
	}
}

func configMap(name string) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		TypeMeta:   meta.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "ns"},
		Data:       map[string]string{"k": "v"},
	}
}

func TestRequestBodyEncoding(t *testing.T) {
	srv, last := recorder(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusOK) })
	tests := []struct {
		name      string
		edit      func(*Config)
		req       func(*Client) *Request
		wantType  string
		wantProto bool
	}{
		{"protobuf object", nil,
			func(c *Client) *Request {
				return c.Post().Version("v1").Namespace("ns").Resource("configmaps").Body(configMap("a"))
			},
			protobuf.MediaType, true},
		{"upstream protobuf name", func(c *Config) { c.ContentType = protobuf.UpstreamMediaType },
			func(c *Client) *Request { return c.Post().Version("v1").Resource("configmaps").Body(configMap("a")) },
			protobuf.UpstreamMediaType, true},
		{"json config", func(c *Config) { c.ContentType = ContentTypeJSON },
			func(c *Client) *Request { return c.Post().Version("v1").Resource("configmaps").Body(configMap("a")) },
			ContentTypeJSON, false},
		{"object without protobuf form", nil,
			func(c *Client) *Request {
				return c.Post().Version("v1").Resource("things").Body(map[string]any{"a": 1})
			},
			ContentTypeJSON, false},
		{"merge patch object", nil,
			func(c *Client) *Request {
				return c.Patch(MergePatchType).Version("v1").Resource("configmaps").Name("a").Body(map[string]any{"data": nil})
			},
			string(MergePatchType), false},
		{"json patch bytes", nil,
			func(c *Client) *Request {
				return c.Patch(JSONPatchType).Version("v1").Resource("configmaps").Name("a").Body([]byte(`[{"op":"remove","path":"/data/k"}]`))
			},
			string(JSONPatchType), false},
		{"strategic patch string", nil,
			func(c *Client) *Request {
				return c.Patch(StrategicMergePatchType).Version("v1").Resource("configmaps").Name("a").Body(`{"data":{"k":"w"}}`)
			},
			string(StrategicMergePatchType), false},
		{"reader", nil,
			func(c *Client) *Request {
				return c.Put().Version("v1").Resource("configmaps").Name("a").Body(strings.NewReader(`{}`))
			},
			ContentTypeJSON, false},
		{"header override", nil,
			func(c *Client) *Request {
				return c.Post().Version("v1").Resource("configmaps").Body([]byte("a: b")).SetHeader("content-type", "application/yaml")
			},
			"application/yaml", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := testClient(t, srv, tt.edit)
			if err := tt.req(c).Do(t.Context()).Error(); err != nil {
				t.Fatalf("Do: %v", err)
			}
			got := last()
			if got.contentType != tt.wantType {
				t.Errorf("Content-Type = %q, want %q", got.contentType, tt.wantType)
			}
			if isProto := bytes.HasPrefix(got.body, protobuf.Prefix()); isProto != tt.wantProto {
				t.Errorf("body starts with the envelope prefix = %t, want %t (% x)", isProto, tt.wantProto, got.body[:min(8, len(got.body))])
			}
			if !tt.wantProto && tt.wantType != "application/yaml" && !json.Valid(got.body) {
				t.Errorf("body is not JSON: %q", got.body)
			}
		})
	}
}

func TestProtobufBodyRoundTrips(t *testing.T) {
	srv, last := recorder(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusCreated) })
	c := testClient(t, srv, nil)
	if err := c.Post().Version("v1").Namespace("ns").Resource("configmaps").Body(configMap("a")).Do(t.Context()).Error(); err != nil {
		t.Fatal(err)
	}
	var got corev1.ConfigMap
	apiVersion, kind, err := protobuf.DecodeInto(last().body, &got)
	if err != nil {
		t.Fatal(err)
	}
	if apiVersion != "v1" || kind != "ConfigMap" || got.Name != "a" || got.Data["k"] != "v" {
		t.Fatalf("server decoded %s %s %+v", apiVersion, kind, got)
	}
}

func TestRequestHeaders(t *testing.T) {
	srv, last := recorder(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusOK) })
	tests := []struct {
		name                 string
		edit                 func(*Config)
		wantAccept, wantUA   string
		wantAuth             string
		wantDefaultUserAgent bool
	}{
		{"defaults", nil, protobuf.MediaType + ", " + ContentTypeJSON, "", "", true},
		{"json only", func(c *Config) { c.ContentType = ContentTypeJSON }, ContentTypeJSON, "", "", true},
		{"explicit", func(c *Config) {
			c.AcceptContentTypes, c.UserAgent, c.BearerToken = "application/json;as=Table", "ctl/1.0", "tok"
		}, "application/json;as=Table", "ctl/1.0", "Bearer tok", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := testClient(t, srv, tt.edit)
			if err := c.Get().AbsPath("/version").Do(t.Context()).Error(); err != nil {
				t.Fatal(err)
			}
			got := last()
			if got.accept != tt.wantAccept {
				t.Errorf("Accept = %q, want %q", got.accept, tt.wantAccept)
			}
			wantUA := tt.wantUA
			if tt.wantDefaultUserAgent {
				wantUA = DefaultUserAgent()
			}
			if got.userAgent != wantUA {
				t.Errorf("User-Agent = %q, want %q", got.userAgent, wantUA)
			}
			if got.auth != tt.wantAuth {
				t.Errorf("Authorization = %q, want %q", got.auth, tt.wantAuth)
			}
		})
	}
}

func TestResponseDecoding(t *testing.T) {
	cm := configMap("a")
	jsonCM, _ := json.Marshal(cm)
	tests := []struct {
		name        string
		contentType string
		body        []byte
		into        func() any
		wantErr     error  // matched with errors.Is
		wantErrText string // or contained in the message
	}{
		{"protobuf", protobuf.MediaType + "; charset=binary", protobuf.Encode("v1", "ConfigMap", cm), func() any { return &corev1.ConfigMap{} }, nil, ""},
		{"upstream protobuf", protobuf.UpstreamMediaType, protobuf.Encode("v1", "ConfigMap", cm), func() any { return &corev1.ConfigMap{} }, nil, ""},
		{"json", "application/json", jsonCM, func() any { return &corev1.ConfigMap{} }, nil, ""},
		{"json without content type", "", jsonCM, func() any { return &corev1.ConfigMap{} }, nil, ""},
		{"json into a map", "application/json", jsonCM, func() any { return &map[string]any{} }, nil, ""},
		{"protobuf without prefix", protobuf.MediaType, protobuf.Marshal(cm), func() any { return &corev1.ConfigMap{} }, protobuf.ErrNoPrefix, ""},
		{"protobuf into a map", protobuf.MediaType, protobuf.Encode("v1", "ConfigMap", cm), func() any { return &map[string]any{} }, nil, "cannot hold"},
		{"unknown type", "text/html", []byte("<html>"), func() any { return &corev1.ConfigMap{} }, nil, "cannot decode"},
		{"bad json", "application/json", []byte("{"), func() any { return &corev1.ConfigMap{} }, nil, "decoding the JSON"},
		{"empty body", "application/json", nil, func() any { return &corev1.ConfigMap{} }, nil, "no body"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if tt.contentType != "" {
					w.Header().Set("Content-Type", tt.contentType)
				} else {
					w.Header()["Content-Type"] = nil
				}
				_, _ = w.Write(tt.body)
			}))
			defer srv.Close()
			c := testClient(t, srv, nil)
			out := tt.into()
			err := c.Get().Version("v1").Namespace("ns").Resource("configmaps").Name("a").Do(t.Context()).Into(out)
			switch {
			case tt.wantErr != nil:
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("Into error = %v, want %v", err, tt.wantErr)
				}
				return
			case tt.wantErrText != "":
				if err == nil || !strings.Contains(err.Error(), tt.wantErrText) {
					t.Fatalf("Into error = %v, want one containing %q", err, tt.wantErrText)
				}
				return
			case err != nil:
				t.Fatalf("Into: %v", err)
			}
			if got, ok := out.(*corev1.ConfigMap); ok {
				if got.Kind != "ConfigMap" || got.APIVersion != "v1" || got.Name != "a" || got.Data["k"] != "v" {
					t.Fatalf("decoded %+v", got)
				}
			}
		})
	}
}

// TestJSONFallback checks a server that speaks only JSON: the default
// Accept lets it answer in JSON, and the answer decodes.
func TestJSONFallback(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.Header.Get("Accept"), "application/json") {
			w.WriteHeader(http.StatusNotAcceptable)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(configMap("from-json"))
	}))
	defer srv.Close()
	c := testClient(t, srv, nil)
	var got corev1.ConfigMap
	if err := c.Get().Version("v1").Namespace("ns").Resource("configmaps").Name("x").Do(t.Context()).Into(&got); err != nil {
		t.Fatal(err)
	}
	if got.Name != "from-json" {
		t.Fatalf("got %+v", got)
	}
}

func TestNilBodyRefused(t *testing.T) {
	srv, _ := recorder(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusOK) })
	c := testClient(t, srv, nil)
	err := c.Post().Version("v1").Resource("configmaps").Body((*corev1.ConfigMap)(nil)).Do(t.Context()).Error()
	if err == nil || !strings.Contains(err.Error(), "nil") {
		t.Fatalf("a nil object body: %v", err)
	}
}
