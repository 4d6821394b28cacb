package serviceaccount

import (
	"crypto"
	"crypto/elliptic"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/google/go-cmp/cmp"
)

func TestDiscovery(t *testing.T) {
	rk, ek := rsaKey(t), ecKey(t, elliptic.P256())
	rkid, _ := KeyID(rk.Public())
	ekid, _ := KeyID(ek.Public())
	keys := []crypto.PublicKey{rk.Public(), ek.Public(), rk.Public()}

	cases := []struct {
		name, issuer, jwksURI, wantJWKS string
		keys                            []crypto.PublicKey
		wantErr                         bool
	}{
		{name: "jwks on the issuer's host", issuer: "https://api.example:6443/prefix", keys: keys, wantJWKS: "https://api.example:6443/openid/v1/jwks"},
		{name: "jwks uri given", issuer: "https://api.example", jwksURI: "https://cdn.example/keys", keys: keys, wantJWKS: "https://cdn.example/keys"},
		{name: "not https", issuer: "http://api.example", keys: keys, wantErr: true},
		{name: "not a URL", issuer: "platform", keys: keys, wantErr: true},
		{name: "query", issuer: "https://api.example?a=b", keys: keys, wantErr: true},
		{name: "fragment", issuer: "https://api.example#x", keys: keys, wantErr: true},
		{name: "no keys", issuer: "https://api.example", wantErr: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := NewDiscovery(c.issuer, c.jwksURI, c.keys)
			if c.wantErr {
				if err == nil {
					t.Fatal("no error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var cfg map[string]any
			fetch(t, d.ConfigHandler(), "application/json", &cfg)
			want := map[string]any{
				"issuer": c.issuer, "jwks_uri": c.wantJWKS,
				"response_types_supported":              []any{"id_token"},
				"subject_types_supported":               []any{"public"},
				"id_token_signing_alg_values_supported": []any{"ES256", "RS256"},
			}
			if diff := cmp.Diff(want, cfg); diff != "" {
				t.Errorf("config (-want +got):\n%s", diff)
			}
			var set jose.JSONWebKeySet
			fetch(t, d.KeysHandler(), "application/jwk-set+json", &set)
			if len(set.Keys) != 2 {
				t.Fatalf("%d keys, want 2 (the duplicate dropped)", len(set.Keys))
			}
			for i, want := range []struct{ kid, alg string }{{rkid, "RS256"}, {ekid, "ES256"}} {
				k := set.Keys[i]
				if k.KeyID != want.kid || k.Algorithm != want.alg || k.Use != "sig" || !k.IsPublic() {
					t.Errorf("key %d: kid=%s alg=%s use=%s public=%v", i, k.KeyID, k.Algorithm, k.Use, k.IsPublic())
				}
			}
		})
	}
}

func fetch(t *testing.T, h http.Handler, mediaType string, into any) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != mediaType || rec.Header().Get("Cache-Control") != "public, max-age=3600" {
		t.Fatalf("got %d %q %q", rec.Code, rec.Header().Get("Content-Type"), rec.Header().Get("Cache-Control"))
	}
	if err := json.Unmarshal(rec.Body.Bytes(), into); err != nil {
		t.Fatal(err)
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/", nil))
	if rec.Code != http.StatusMethodNotAllowed {
		t.Fatalf("POST: %d", rec.Code)
	}
}
