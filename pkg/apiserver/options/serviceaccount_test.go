package options

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"platform.io/platform/pkg/apiserver/serviceaccount"
)

// keyFiles writes a signing key, its public key and an unrelated public
// key into dir.
func keyFiles(t *testing.T) (signing, public, other string) {
	t.Helper()
	dir := t.TempDir()
	write := func(name, typ string, der []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	k, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	o, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	priv, _ := x509.MarshalECPrivateKey(k)
	pub, _ := x509.MarshalPKIXPublicKey(k.Public())
	opub, _ := x509.MarshalPKIXPublicKey(o.Public())
	return write("sa.key", "EC PRIVATE KEY", priv), write("sa.pub", "PUBLIC KEY", pub), write("other.pub", "PUBLIC KEY", opub)
}

func TestServiceAccountValidate(t *testing.T) {
	signing, public, other := keyFiles(t)
	garbage := filepath.Join(t.TempDir(), "garbage")
	os.WriteFile(garbage, []byte("not a key"), 0o600)
	ok := func(extra ...string) []string {
		return append([]string{"--service-account-issuer=https://api.example", "--service-account-signing-key-file=" + signing, "--service-account-key-file=" + public}, extra...)
	}
	cases := []struct {
		name string
		args []string
		want string // substring of the error; empty means valid
	}{
		{name: "defaults", args: nil},
		{name: "complete", args: ok()},
		{name: "several issuers and keys", args: ok("--service-account-issuer=platform", "--service-account-key-file="+other, "--api-audiences=a,b", "--service-account-max-token-expiration=24h", "--service-account-jwks-uri=https://cdn.example/keys")},
		{name: "issuer without signing key", args: []string{"--service-account-issuer=https://api.example"}, want: "should be specified together"},
		{name: "signing key without issuer", args: []string{"--service-account-signing-key-file=" + signing, "--service-account-key-file=" + public}, want: "should be specified together"},
		{name: "audiences alone", args: []string{"--api-audiences=a"}, want: "should be specified together"},
		{name: "signing key without key files", args: []string{"--service-account-issuer=x", "--service-account-signing-key-file=" + signing}, want: "--service-account-key-file must be specified"},
		{name: "signing key not among verifying keys", args: []string{"--service-account-issuer=x", "--service-account-signing-key-file=" + signing, "--service-account-key-file=" + other}, want: "would not verify"},
		{name: "missing key file", args: ok("--service-account-key-file=/does/not/exist"), want: "no such file"},
		{name: "unparseable key file", args: ok("--service-account-key-file=" + garbage), want: "no RSA or ECDSA key"},
		{name: "unparseable signing key", args: []string{"--service-account-issuer=x", "--service-account-signing-key-file=" + public, "--service-account-key-file=" + public}, want: "--service-account-signing-key-file"},
		{name: "empty issuer", args: ok("--service-account-issuer="), want: "should not be an empty string"},
		{name: "duplicate issuer", args: ok("--service-account-issuer=https://api.example"), want: "already specified"},
		{name: "issuer not a URL", args: ok("--service-account-issuer=https://[::1"), want: "not a valid URL"},
		{name: "max expiration too short", args: ok("--service-account-max-token-expiration=59m"), want: "between 1 hour and 2^32 seconds"},
		{name: "jwks uri not https", args: ok("--service-account-jwks-uri=http://cdn.example/keys"), want: "not an https URL"},
		{name: "jwks uri without issuer", args: []string{"--service-account-jwks-uri=https://cdn.example/keys"}, want: "requires --service-account-issuer"},
		{name: "key file without issuer", args: []string{"--service-account-key-file=" + public}, want: "requires --service-account-issuer"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := NewServiceAccount()
			fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
			o.AddFlags(fs)
			if err := fs.Parse(c.args); err != nil {
				t.Fatal(err)
			}
			var msgs []string
			for _, err := range o.Validate() {
				msgs = append(msgs, err.Error())
			}
			got := strings.Join(msgs, "; ")
			if c.want == "" && got != "" || !strings.Contains(got, c.want) {
				t.Fatalf("errors %q, want %q", got, c.want)
			}
		})
	}
}

func TestServiceAccountApplyTo(t *testing.T) {
	signing, public, other := keyFiles(t)
	cases := []struct {
		name          string
		o             ServiceAccount
		wantAudiences []string
		wantDiscovery bool
	}{
		{name: "https issuer", o: ServiceAccount{Issuers: []string{"https://api.example", "old"}, KeyFiles: []string{public, other}, SigningKeyFile: signing},
			wantAudiences: []string{"https://api.example"}, wantDiscovery: true},
		{name: "plain issuer", o: ServiceAccount{Issuers: []string{"platform"}, KeyFiles: []string{public}, SigningKeyFile: signing, APIAudiences: []string{"api"}, MaxTokenExpiration: 2 * time.Hour},
			wantAudiences: []string{"api"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var cfg serviceaccount.Config
			if err := c.o.ApplyTo(&cfg, nil); err != nil {
				t.Fatal(err)
			}
			if !cfg.Enabled() || cfg.Issuer.Name() != c.o.Issuers[0] || len(cfg.Issuers) != len(c.o.Issuers) || cfg.MaxExpiration != c.o.MaxTokenExpiration {
				t.Fatalf("config %+v", cfg)
			}
			if strings.Join(cfg.APIAudiences, ",") != strings.Join(c.wantAudiences, ",") {
				t.Errorf("audiences %v, want %v", cfg.APIAudiences, c.wantAudiences)
			}
			if (cfg.Discovery != nil) != c.wantDiscovery || (cfg.DiscoveryDisabled != nil) == c.wantDiscovery {
				t.Errorf("discovery %v, disabled %v", cfg.Discovery, cfg.DiscoveryDisabled)
			}
			if want := len(c.o.KeyFiles); len(cfg.Keys) != want {
				t.Errorf("%d keys, want %d", len(cfg.Keys), want)
			}
		})
	}
	var cfg serviceaccount.Config
	if err := NewServiceAccount().ApplyTo(&cfg, nil); err != nil || cfg.Enabled() {
		t.Fatalf("defaults: enabled=%v err=%v", cfg.Enabled(), err)
	}
}
