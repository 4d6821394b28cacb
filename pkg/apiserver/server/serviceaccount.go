package server

import (
	"net/http"

	"go.uber.org/zap"

	saregistry "platform.io/platform/pkg/apiserver/registry/core/serviceaccount"
	"platform.io/platform/pkg/apiserver/serviceaccount"
)

// serviceAccountTokens is the server's part of service-account tokens:
// the token setup from the options, and the stores the TokenRequest
// subresource and the live checks read (filled once the stores exist).
//
// This is the one place that wires them; the authentication chain takes
// auth from here (buildChain), and TokenReview answers with the whole
// token chain (tokenreview.go).
type serviceAccountTokens struct {
	config  serviceaccount.Config
	objects *serviceaccount.StoreObjects
	auth    *serviceaccount.Authenticator
}

// newServiceAccountTokens reads the token options; with no issuer nothing
// is served.
func (s *Server) newServiceAccountTokens() (*serviceAccountTokens, error) {
	t := &serviceAccountTokens{objects: &serviceaccount.StoreObjects{}}
	if err := s.opts.ServiceAccount.ApplyTo(&t.config, nil); err != nil {
		return nil, err
	}
	if !t.config.Enabled() {
		return t, nil
	}
	var err error
	if t.auth, err = t.config.Authenticator(t.objects, nil); err != nil {
		return nil, err
	}
	if t.config.DiscoveryDisabled != nil {
		s.lg.Warn("service account issuer discovery is not served", zap.Error(t.config.DiscoveryDisabled))
	}
	return t, nil
}

// registryConfig is what the serviceaccounts row needs.
func (t *serviceAccountTokens) registryConfig() saregistry.TokenConfig {
	return saregistry.TokenConfig{Tokens: &t.config, Objects: t.objects}
}

// useStores points the live reads at the server's stores.
func (t *serviceAccountTokens) useStores(s *Server) {
	t.objects.ServiceAccounts = s.store("", "serviceaccounts")
	t.objects.Pods = s.store("", "pods")
	t.objects.Secrets = s.store("", "secrets")
}

// install serves the issuer discovery documents on mux, each through wrap
// (the chain every other path goes through).
func (t *serviceAccountTokens) install(mux *http.ServeMux, wrap func(http.Handler) http.Handler) {
	if d := t.config.Discovery; d != nil {
		mux.Handle(serviceaccount.OpenIDConfigPath, wrap(d.ConfigHandler()))
		mux.Handle(serviceaccount.JWKSPath, wrap(d.KeysHandler()))
	}
}

// ServiceAccountAuthenticator returns the service-account token authenticator, nil when
// no issuer is configured.
func (s *Server) ServiceAccountAuthenticator() *serviceaccount.Authenticator { return s.saTokens.auth }
