package options

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"
	"go.uber.org/zap"

	"platform.io/platform/pkg/component/certs"
)

func TestAuthenticationDefaults(t *testing.T) {
	o := NewAuthentication()
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	o.AddFlags(fs)
	want := map[string]string{
		"anonymous-auth": "true", "client-ca-file": "", "token-auth-file": "", "enable-bootstrap-token-auth": "false",
		"authentication-token-webhook-config-file": "", "authentication-token-webhook-version": "v1beta1",
		"authentication-token-webhook-cache-ttl": "2m0s", "requestheader-client-ca-file": "",
		"requestheader-allowed-names": "[]", "requestheader-username-headers": "[]",
		"requestheader-group-headers": "[]", "requestheader-extra-headers-prefix": "[]",
	}
	for name, def := range want {
		if f := fs.Lookup(name); f == nil || f.DefValue != def {
			t.Errorf("--%s default %v, want %q", name, f, def)
		}
	}
	if errs := o.Validate(); len(errs) != 0 {
		t.Errorf("defaults invalid: %v", errs)
	}
}

func TestAuthenticationValidate(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--authentication-token-webhook-version=v2"}, "neither v1beta1 nor v1"},
		{[]string{"--authentication-token-webhook-cache-ttl=-1s"}, "negative"},
		{[]string{"--requestheader-client-ca-file=ca.crt"}, "--requestheader-username-headers: required"},
		{[]string{"--requestheader-username-headers=X-Remote-User"}, "--requestheader-client-ca-file: required"},
	} {
		o := NewAuthentication()
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		o.AddFlags(fs)
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		errs := o.Validate()
		if len(errs) != 1 || !strings.Contains(errs[0].Error(), tc.want) {
			t.Errorf("%v: errors %v, want one containing %q", tc.args, errs, tc.want)
		}
	}
}

// TestAnonymousUnderAlwaysAllow: anonymous requests are off whenever
// AlwaysAllow is among the modes, and as --anonymous-auth says otherwise.
func TestAnonymousUnderAlwaysAllow(t *testing.T) {
	for _, tc := range []struct {
		anonymous bool
		modes     []string
		want      bool
	}{
		{true, []string{ModeAlwaysAllow}, false},
		{true, []string{ModeRBAC, ModeAlwaysAllow}, false},
		{true, []string{ModeAlwaysDeny}, true},
		{true, []string{ModeNode, ModeRBAC}, true},
		{false, []string{ModeRBAC}, false},
	} {
		o := NewAuthentication()
		o.Anonymous = tc.anonymous
		cfg, err := o.ApplyTo(zap.NewNop(), tc.modes, AuthenticationDeps{})
		if err != nil {
			t.Fatal(err)
		}
		_, ok, _ := cfg.Authenticator.AuthenticateRequest(httptest.NewRequest("GET", "/healthz", nil))
		if ok != tc.want {
			t.Errorf("--anonymous-auth=%v modes %v: anonymous request ok=%v, want %v", tc.anonymous, tc.modes, ok, tc.want)
		}
	}
}

func TestAuthenticationApplyTo(t *testing.T) {
	dir := t.TempDir()
	ca, err := certs.NewCA("ca")
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	o := NewAuthentication()
	o.ClientCAFile = write("ca.crt", string(ca.CertPEM))
	o.RequestHeaderCAFile = o.ClientCAFile
	o.RequestHeaderUsername = []string{"X-Remote-User"}
	o.TokenAuthFile = write("tokens.csv", "tok,alice,1\n")
	cfg, err := o.ApplyTo(zap.NewNop(), []string{ModeRBAC}, AuthenticationDeps{})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Published["client-ca-file"] != string(ca.CertPEM) || cfg.Published["requestheader-username-headers"] != `["X-Remote-User"]` ||
		cfg.Published["requestheader-allowed-names"] != "[]" {
		t.Errorf("published %v", cfg.Published)
	}
	r := httptest.NewRequest("GET", "/api", nil)
	r.Header.Set("Authorization", "Bearer tok")
	if u, ok, err := cfg.Authenticator.AuthenticateRequest(r); !ok || u.Name != "alice" {
		t.Errorf("token file not in the chain: %+v %v %v", u, ok, err)
	}

	for _, bad := range []func(o *Authentication){
		func(o *Authentication) { o.ClientCAFile = write("empty.crt", "") },
		func(o *Authentication) { o.TokenAuthFile = write("bad.csv", "tok,alice\n") },
		func(o *Authentication) { o.WebhookConfigFile = filepath.Join(dir, "missing") },
		func(o *Authentication) { o.BootstrapToken = true },
	} {
		o := NewAuthentication()
		bad(o)
		if _, err := o.ApplyTo(zap.NewNop(), []string{ModeRBAC}, AuthenticationDeps{}); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
}
