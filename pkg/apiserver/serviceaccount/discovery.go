package serviceaccount

import (
	"crypto"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"

	jose "github.com/go-jose/go-jose/v4"
)

// The issuer discovery paths, served when an issuer is configured.
const (
	OpenIDConfigPath = "/.well-known/openid-configuration"
	JWKSPath         = "/openid/v1/jwks"
	// discoveryCacheControl lets relying parties cache both documents for an hour.
	discoveryCacheControl = "public, max-age=3600"
	jwksMediaType         = "application/jwk-set+json"
)

// openIDConfig is the OpenID Connect discovery document, with the fields
// upstream fills.
type openIDConfig struct {
	Issuer        string   `json:"issuer"`
	JWKSURI       string   `json:"jwks_uri"`
	ResponseTypes []string `json:"response_types_supported"`
	SubjectTypes  []string `json:"subject_types_supported"`
	SigningAlgs   []string `json:"id_token_signing_alg_values_supported"`
}

// Discovery holds the two rendered documents.
type Discovery struct {
	config []byte
	keys   []byte
}

// NewDiscovery renders the documents of issuer and its verifying keys.
// The issuer must be an https URL without query or fragment, as OpenID
// requires. jwksURI, when empty, is the issuer's host with JWKSPath.
func NewDiscovery(issuer, jwksURI string, keys []crypto.PublicKey) (*Discovery, error) {
	iss, err := url.Parse(issuer)
	switch {
	case err != nil:
		return nil, fmt.Errorf("serviceaccount: issuer %q: %w", issuer, err)
	case iss.Scheme != "https" || iss.Host == "":
		return nil, fmt.Errorf("serviceaccount: issuer %q is not an https URL", issuer)
	case iss.RawQuery != "" || iss.Fragment != "":
		return nil, fmt.Errorf("serviceaccount: issuer %q may not have a query or fragment", issuer)
	case len(keys) == 0:
		return nil, errors.New("serviceaccount: no keys to publish")
	}
	if jwksURI == "" {
		jwksURI = (&url.URL{Scheme: "https", Host: iss.Host, Path: JWKSPath}).String()
	}
	set := jose.JSONWebKeySet{}
	var algs []string
	seen := map[string]bool{}
	for _, k := range keys {
		alg, err := Algorithm(k)
		if err != nil {
			return nil, err
		}
		kid, err := KeyID(k)
		if err != nil {
			return nil, err
		}
		if seen[kid] {
			continue
		}
		seen[kid] = true
		set.Keys = append(set.Keys, jose.JSONWebKey{Key: k, KeyID: kid, Algorithm: string(alg), Use: "sig"})
		if !slices.Contains(algs, string(alg)) {
			algs = append(algs, string(alg))
		}
	}
	slices.Sort(algs)
	d := &Discovery{}
	if d.config, err = json.Marshal(openIDConfig{
		Issuer: issuer, JWKSURI: jwksURI,
		ResponseTypes: []string{"id_token"}, SubjectTypes: []string{"public"}, SigningAlgs: algs,
	}); err != nil {
		return nil, fmt.Errorf("serviceaccount: render discovery: %w", err)
	}
	if d.keys, err = json.Marshal(set); err != nil {
		return nil, fmt.Errorf("serviceaccount: render key set: %w", err)
	}
	return d, nil
}

// ConfigHandler serves the discovery document.
func (d *Discovery) ConfigHandler() http.Handler { return serveDoc(d.config, "application/json") }

// KeysHandler serves the key set.
func (d *Discovery) KeysHandler() http.Handler { return serveDoc(d.keys, jwksMediaType) }

func serveDoc(body []byte, mediaType string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", mediaType)
		w.Header().Set("Cache-Control", discoveryCacheControl)
		w.WriteHeader(http.StatusOK)
		if r.Method == http.MethodGet {
			w.Write(body)
		}
	})
}
