package aggregator

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"

	"platform.io/platform/pkg/component/authn"
	"platform.io/platform/pkg/component/certs"
)

// The delegated group version the test's server serves.
const (
	group   = "wardle.example.io"
	version = "v1"
	gvPath  = "/apis/" + group + "/" + version
)

// seen is what the aggregated server learnt of one request.
type seen struct {
	user          *authn.User
	authorization string
	impersonate   bool
}

// wardle is a small aggregated API server: it serves the discovery
// document of wardle.example.io/v1 and lists (or watches) flunders,
// authenticating every request by the front-proxy certificate and the
// user headers, as an aggregated server delegating authentication does.
type wardle struct {
	addr string
	// mu guards requests.
	mu       sync.Mutex
	requests []seen
}

// startWardle serves on a random loopback port with a certificate for
// serverName signed by ca, trusting front-proxy certificates of proxyCA
// whose common name is proxyName.
func startWardle(t *testing.T, ca, proxyCA *certs.Pair, serverName, proxyName string) *wardle {
	t.Helper()
	serving, err := certs.NewServing(ca, "wardle", []string{serverName})
	if err != nil {
		t.Fatal(err)
	}
	cert, err := tls.X509KeyPair(serving.CertPEM, serving.KeyPEM)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(proxyCA.Cert)
	w := &wardle{}
	rh := authn.NewRequestHeader(authn.RequestHeaderConfig{
		ClientCA: pool, AllowedNames: []string{proxyName},
		UsernameHeaders: []string{"X-Remote-User"}, GroupHeaders: []string{"X-Remote-Group"}, ExtraHeaderPrefixes: []string{"X-Remote-Extra-"},
	})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{
		Handler: http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
			s := seen{authorization: r.Header.Get("Authorization")}
			for name := range r.Header {
				if strings.HasPrefix(strings.ToLower(name), "impersonate-") {
					s.impersonate = true
				}
			}
			u, ok, err := rh.AuthenticateRequest(r)
			if err != nil || !ok {
				http.Error(rw, fmt.Sprintf("not authenticated by the front proxy: %v", err), http.StatusUnauthorized)
				return
			}
			s.user = u
			w.mu.Lock()
			w.requests = append(w.requests, s)
			w.mu.Unlock()
			w.serve(rw, r)
		}),
		TLSConfig: &tls.Config{Certificates: []tls.Certificate{cert}, ClientAuth: tls.VerifyClientCertIfGiven, ClientCAs: pool, MinVersion: tls.VersionTLS12},
	}
	go srv.ServeTLS(l, "", "")
	t.Cleanup(func() { srv.Close() })
	w.addr = l.Addr().String()
	return w
}

func (w *wardle) serve(rw http.ResponseWriter, r *http.Request) {
	rw.Header().Set("Content-Type", "application/json")
	switch {
	case r.URL.Path == gvPath:
		json.NewEncoder(rw).Encode(map[string]any{
			"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": group + "/" + version,
			"resources": []map[string]any{{"name": "flunders", "singularName": "flunder", "namespaced": true, "kind": "Flunder",
				"verbs": []string{"get", "list", "watch"}}},
		})
	case r.URL.Path == "/openapi/v2":
		rw.Write([]byte(openAPIV2Document))
	case r.URL.Path == "/openapi/v3"+gvPath:
		rw.Write([]byte(openAPIDocument))
	case r.URL.Path == gvPath+"/namespaces/default/flunders" && r.URL.Query().Get("watch") == "true":
		json.NewEncoder(rw).Encode(map[string]any{"type": "ADDED", "object": flunder("streamed")})
		rw.(http.Flusher).Flush()
		<-r.Context().Done()
	case r.URL.Path == gvPath+"/namespaces/default/flunders":
		json.NewEncoder(rw).Encode(map[string]any{"kind": "FlunderList", "apiVersion": group + "/" + version,
			"metadata": map[string]any{"resourceVersion": "1"}, "items": []any{flunder("first")}})
	default:
		rw.WriteHeader(http.StatusNotFound)
		json.NewEncoder(rw).Encode(map[string]any{"kind": "Status", "apiVersion": "v1", "status": "Failure", "reason": "NotFound", "code": 404})
	}
}

func flunder(name string) map[string]any {
	return map[string]any{"kind": "Flunder", "apiVersion": group + "/" + version,
		"metadata": map[string]any{"name": name, "namespace": "default", "creationTimestamp": "2026-11-27T06:00:00Z"}}
}

// last returns the latest request other than the availability checks'.
func (w *wardle) last() (seen, int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := 0
	var out seen
	for _, s := range w.requests {
		if s.user.Name != "system:platform-aggregator" {
			out = s
			n++
		}
	}
	return out, n
}

// openAPIDocument is the server's OpenAPI v3 document of wardle.example.io/v1.
const openAPIDocument = `{"openapi":"3.0.0","info":{"title":"wardle","version":"v1"},
"paths":{"/apis/wardle.example.io/v1/namespaces/{namespace}/flunders/{name}":{"get":{"x-kubernetes-action":"get",
"x-kubernetes-group-version-kind":{"group":"wardle.example.io","version":"v1","kind":"Flunder"},
"responses":{"200":{"description":"OK","content":{"application/json":{"schema":{"$ref":"#/components/schemas/io.example.wardle.v1.Flunder"}}}}}}}},
"components":{"schemas":{"io.example.wardle.v1.Flunder":{"type":"object","description":"A flunder is what the wardle server keeps.",
"properties":{"apiVersion":{"type":"string"},"kind":{"type":"string"},"metadata":{"type":"object"},
"spec":{"type":"object","description":"What the flunder should be.","properties":{"reference":{"type":"string"}}}},
"x-kubernetes-group-version-kind":[{"group":"wardle.example.io","version":"v1","kind":"Flunder"}]}}}}`

// openAPIV2Document is the server's OpenAPI v2 document.
const openAPIV2Document = `{"swagger":"2.0","info":{"title":"wardle","version":"v1"},
"paths":{"/apis/wardle.example.io/v1/namespaces/{namespace}/flunders/{name}":{"get":{"x-kubernetes-action":"get",
"x-kubernetes-group-version-kind":{"group":"wardle.example.io","version":"v1","kind":"Flunder"},
"responses":{"200":{"description":"OK","schema":{"$ref":"#/definitions/io.example.wardle.v1.Flunder"}}}}}},
"definitions":{"io.example.wardle.v1.Flunder":{"type":"object","description":"A flunder is what the wardle server keeps.",
"properties":{"apiVersion":{"type":"string"},"kind":{"type":"string"}},
"x-kubernetes-group-version-kind":[{"group":"wardle.example.io","version":"v1","kind":"Flunder"}]}}}`
