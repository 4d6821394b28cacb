package webhooktest

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"

	admv1 "platform.io/client/api/admission/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/component/certs"
)

// Server is a running webhook.
type Server struct {
	// URL is https://127.0.0.1:<port>.
	URL  string
	Port int32
	// CABundle verifies the server's certificate (valid for 127.0.0.1 and
	// the hosts given to Start).
	CABundle []byte
	// mu guards handler and requests.
	mu       sync.Mutex
	handler  Handler
	requests []admv1.AdmissionRequest
	versions []string
}

// Handler answers one review: it fills resp (uid and apiVersion are set
// for it) or returns raw bytes to send instead.
type Handler func(ctx context.Context, req *admv1.AdmissionRequest, resp *admv1.AdmissionResponse) (raw []byte)

// Start runs a webhook answering with h until the test ends.
func Start(t testing.TB, h Handler, hosts ...string) *Server {
	t.Helper()
	ca, err := certs.NewCA("webhook-test-ca")
	if err != nil {
		t.Fatal(err)
	}
	pair, err := certs.NewServing(ca, "webhook", hosts)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := tls.X509KeyPair(pair.CertPEM, pair.KeyPEM)
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{CABundle: ca.CertPEM, handler: h}
	hs := httptest.NewUnstartedServer(http.HandlerFunc(s.serve))
	hs.TLS = &tls.Config{Certificates: []tls.Certificate{cert}}
	hs.StartTLS()
	t.Cleanup(hs.Close)
	s.URL = hs.URL
	_, port, _ := net.SplitHostPort(hs.Listener.Addr().String())
	p, _ := strconv.Atoi(port)
	s.Port = int32(p)
	return s
}

// SetHandler replaces the handler.
func (s *Server) SetHandler(h Handler) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handler = h
}

// Requests returns the requests received so far.
func (s *Server) Requests() []admv1.AdmissionRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]admv1.AdmissionRequest(nil), s.requests...)
}

// Versions returns the apiVersion of each review received.
func (s *Server) Versions() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.versions...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var review admv1.AdmissionReview
	if err := json.Unmarshal(body, &review); err != nil || review.Request == nil {
		http.Error(w, "not an AdmissionReview", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.requests = append(s.requests, *review.Request)
	s.versions = append(s.versions, review.APIVersion)
	h := s.handler
	s.mu.Unlock()
	resp := &admv1.AdmissionResponse{UID: review.Request.UID}
	raw := h(r.Context(), review.Request, resp)
	if raw == nil {
		out := admv1.AdmissionReview{TypeMeta: meta.TypeMeta{APIVersion: review.APIVersion, Kind: "AdmissionReview"}, Response: resp}
		raw, _ = json.Marshal(&out)
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(raw)
}

// Allow admits every request.
func Allow(_ context.Context, _ *admv1.AdmissionRequest, resp *admv1.AdmissionResponse) []byte {
	resp.Allowed = true
	return nil
}

// Deny refuses every request with message and code (0 leaves it unset).
func Deny(message string, code int32) Handler {
	return func(_ context.Context, _ *admv1.AdmissionRequest, resp *admv1.AdmissionResponse) []byte {
		resp.Result = &meta.Status{Message: message, Code: code}
		return nil
	}
}

// Warn admits every request with warnings.
func Warn(warnings ...string) Handler {
	return func(_ context.Context, _ *admv1.AdmissionRequest, resp *admv1.AdmissionResponse) []byte {
		resp.Allowed, resp.Warnings = true, warnings
		return nil
	}
}

// Patch admits every request with a JSON Patch.
func Patch(jsonPatch string) Handler {
	return func(_ context.Context, _ *admv1.AdmissionRequest, resp *admv1.AdmissionResponse) []byte {
		pt := admv1.PatchTypeJSONPatch
		resp.Allowed, resp.Patch, resp.PatchType = true, []byte(jsonPatch), &pt
		return nil
	}
}

// Garbage answers with bytes that are not an AdmissionReview.
func Garbage(_ context.Context, _ *admv1.AdmissionRequest, _ *admv1.AdmissionResponse) []byte {
	return []byte("<html>surprise</html>")
}

// Hang never answers: it returns when the caller gives up.
func Hang(ctx context.Context, _ *admv1.AdmissionRequest, resp *admv1.AdmissionResponse) []byte {
	<-ctx.Done()
	resp.Allowed = true
	return nil
}

// UnreachableURL returns an https URL on 127.0.0.1 where nothing listens.
func UnreachableURL(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "https://" + addr + "/"
}
