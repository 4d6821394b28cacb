package rest

// An end-to-end run against a small in-memory API server over TLS: the
// client is built from a kubeconfig on disk, authenticates with a client
// certificate and a rotating token file, and speaks protobuf over HTTP/2.

import (
	"crypto/tls"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/codec/protobuf"
)

// miniServer stores config maps of one namespace and serves create, get
// and a watch that replays every create.
type miniServer struct {
	mu     sync.Mutex
	store  map[string]*corev1.ConfigMap
	tokens []string
	protos []int
	users  []string
}

func (s *miniServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.tokens = append(s.tokens, r.Header.Get("Authorization"))
	s.protos = append(s.protos, r.ProtoMajor)
	if len(r.TLS.PeerCertificates) > 0 {
		s.users = append(s.users, r.TLS.PeerCertificates[0].Subject.CommonName)
	}
	s.mu.Unlock()
	const base = "/api/v1/namespaces/ns/configmaps"
	switch {
	case r.Method == http.MethodPost && r.URL.Path == base:
		s.create(w, r)
	case r.Method == http.MethodGet && r.URL.Path == base && r.URL.Query().Get("watch") == "true":
		s.watch(w)
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, base+"/"):
		s.get(w, r, strings.TrimPrefix(r.URL.Path, base+"/"))
	default:
		http.NotFound(w, r)
	}
}

func (s *miniServer) create(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	cm := &corev1.ConfigMap{}
	if _, _, err := protobuf.DecodeInto(body, cm); err != nil {
		writeProtoStatus(w, apierrors.NewBadRequest(err.Error()))
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.store[cm.Name]; ok {
		writeProtoStatus(w, apierrors.NewAlreadyExists(corev1.Resource("configmaps"), cm.Name))
		return
	}
	cm.ResourceVersion = fmt.Sprint(len(s.store) + 1)
	s.store[cm.Name] = cm
	w.Header().Set("Content-Type", protobuf.MediaType)
	w.WriteHeader(http.StatusCreated)
	_, _ = w.Write(protobuf.Encode("v1", "ConfigMap", cm))
}

func (s *miniServer) get(w http.ResponseWriter, r *http.Request, name string) {
	s.mu.Lock()
	cm, ok := s.store[name]
	s.mu.Unlock()
	if !ok {
		writeProtoStatus(w, apierrors.NewNotFound(corev1.Resource("configmaps"), name))
		return
	}
	w.Header().Set("Content-Type", protobuf.MediaType)
	_, _ = w.Write(protobuf.Encode("v1", "ConfigMap", cm))
}

func (s *miniServer) watch(w http.ResponseWriter) {
	w.Header().Set("Content-Type", protobuf.MediaType+";stream=watch")
	s.mu.Lock()
	var frames [][]byte
	for _, cm := range s.store {
		frames = append(frames, protoFrame(meta.Added, protobuf.Encode("v1", "ConfigMap", cm)))
	}
	s.mu.Unlock()
	for _, f := range frames {
		_, _ = w.Write(f)
	}
	st := apierrors.NewResourceExpired("too old resource version").Status()
	_, _ = w.Write(protoFrame(meta.Error, protobuf.Encode("v1", "Status", &st)))
}

// startMiniServer serves a miniServer over TLS and HTTP/2, asking every
// client for a certificate.
func startMiniServer(t *testing.T) (*miniServer, *httptest.Server) {
	ms := &miniServer{store: map[string]*corev1.ConfigMap{}}
	srv := httptest.NewUnstartedServer(ms)
	srv.EnableHTTP2 = true
	srv.TLS = &tls.Config{ClientAuth: tls.RequireAnyClientCert}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return ms, srv
}

// writeKubeconfig writes a kubeconfig for srv with the client certificate
// and token as files beside it, and returns its path and the token's.
func writeKubeconfig(t *testing.T, srv *httptest.Server) (config, token string) {
	dir := t.TempDir()
	cert, key := selfSigned(t, "controller")
	caPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	writeFile(t, filepath.Join(dir, "creds", "client.crt"), cert)
	writeFile(t, filepath.Join(dir, "creds", "client.key"), key)
	token = filepath.Join(dir, "creds", "token")
	writeFile(t, token, []byte("first\n"))
	config = filepath.Join(dir, "kubeconfig")
	writeFile(t, config, []byte(fmt.Sprintf(`apiVersion: v1
kind: Config
current-context: test
clusters:
- name: test
  cluster:
    server: %s
    certificate-authority-data: %s
    tls-server-name: example.com
users:
- name: controller
  user:
    client-certificate: creds/client.crt
    client-key: creds/client.key
    tokenFile: creds/token
contexts:
- name: test
  context: {cluster: test, user: controller, namespace: ns}
`, srv.URL, base64.StdEncoding.EncodeToString(caPEM))))
	return config, token
}

func TestIntegrationTLSKubeconfig(t *testing.T) {
	ms, srv := startMiniServer(t)
	kubeconfig, tokenPath := writeKubeconfig(t, srv)
	cfg, err := ConfigFromFlags("", kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	ctx := t.Context()
	cms := func() *Request { return c.Get().Version("v1").Namespace("ns").Resource("configmaps") }

	var created corev1.ConfigMap
	if err := c.Post().Version("v1").Namespace("ns").Resource("configmaps").Body(configMap("a")).Do(ctx).Into(&created); err != nil {
		t.Fatalf("create: %v", err)
	}
	if created.ResourceVersion != "1" || created.Kind != "ConfigMap" {
		t.Fatalf("created = %+v", created)
	}
	err = c.Post().Version("v1").Namespace("ns").Resource("configmaps").Body(configMap("a")).Do(ctx).Error()
	if !apierrors.IsAlreadyExists(err) || apierrors.IsConflict(err) {
		t.Fatalf("second create: %v, want AlreadyExists", err)
	}

	// Rotate the token; the next request must carry the new one.
	writeFile(t, tokenPath, []byte("second\n"))
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(tokenPath, later, later); err != nil {
		t.Fatal(err)
	}
	var got corev1.ConfigMap
	if err := cms().Name("a").Do(ctx).Into(&got); err != nil || got.Data["k"] != "v" {
		t.Fatalf("get: %+v, %v", got, err)
	}
	if err := cms().Name("missing").Do(ctx).Into(&got); !apierrors.IsNotFound(err) {
		t.Fatalf("get missing: %v, want NotFound", err)
	}

	w, err := cms().Param("watch", "true").Watch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	if ev, err := w.Next(); err != nil || ev.Type != meta.Added {
		t.Fatalf("watch event: %v, %v", ev.Type, err)
	}
	if _, err := w.Next(); !apierrors.IsResourceExpired(err) {
		t.Fatalf("watch ERROR event: %v", err)
	}

	ms.check(t, []string{"Bearer first", "Bearer first", "Bearer second", "Bearer second", "Bearer second"})
}

// check checks that every request the server saw came over HTTP/2 with the
// client certificate, and carried the tokens wanted.
func (ms *miniServer) check(t *testing.T, wantTokens []string) {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	if fmt.Sprint(ms.tokens) != fmt.Sprint(wantTokens) {
		t.Errorf("tokens = %q, want %q", ms.tokens, wantTokens)
	}
	for i, p := range ms.protos {
		if p != 2 {
			t.Errorf("request %d used HTTP/%d, want HTTP/2", i, p)
		}
	}
	for _, u := range ms.users {
		if u != "controller" {
			t.Errorf("client certificate CN = %q", u)
		}
	}
	if len(ms.users) != len(ms.tokens) {
		t.Errorf("%d of %d requests presented the client certificate", len(ms.users), len(ms.tokens))
	}
}
