// Package sacredentials tests the controller manager's service-account
// credentials (pkg/controller/sacredentials) against a real API server.
package sacredentials

import (
	"context"
	"crypto/x509"
	"encoding/pem"
	"os"
	"path/filepath"
	"testing"

	"go.uber.org/zap/zaptest"

	authnv1 "platform.io/client/api/authentication/v1"
	"platform.io/client/api/meta"
	"platform.io/client/client"
	"platform.io/client/rest"

	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/pkg/component/certs"
	"platform.io/platform/pkg/controller/sacredentials"
	"platform.io/platform/test/integration/framework"
)

// TestLoopClientIsItsServiceAccount: Config creates the account, and a
// client built from it is the account (SelfSubjectReview) and nothing
// else; a refresh replaces the token the client sends.
func TestLoopClientIsItsServiceAccount(t *testing.T) {
	key, err := certs.NewCA("sa-key")
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalECPrivateKey(key.Key)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "sa.key")
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	s := framework.Start(t, func(o *options.Options) {
		o.ServiceAccount.Issuers = []string{"https://platform.it.test"}
		o.ServiceAccount.SigningKeyFile = path
		o.ServiceAccount.KeyFiles = []string{path}
	})
	admin, err := rest.NewClient(&rest.Config{Host: s.URL, QPS: -1})
	if err != nil {
		t.Fatal(err)
	}
	base := &rest.Config{Host: s.SecureURL, QPS: -1, TLS: rest.TLSConfig{CAFile: s.CertFile}}
	p, err := sacredentials.New(zaptest.NewLogger(t), base, admin)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	ctx := context.Background()

	cfg, err := p.Config(ctx, "replicaset-controller")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.NewSet(admin).ServiceAccounts.Namespace(sacredentials.Namespace).Get(ctx, "replicaset-controller", meta.GetOptions{}); err != nil {
		t.Fatalf("the account was not created: %v", err)
	}
	rc, err := rest.NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	whoami := func() string {
		in := &authnv1.SelfSubjectReview{TypeMeta: meta.TypeMeta{APIVersion: "authentication.platform.io/v1", Kind: "SelfSubjectReview"}}
		var out authnv1.SelfSubjectReview
		err := rc.Post().Group("authentication.platform.io").Version("v1").Resource("selfsubjectreviews").Body(in).Do(ctx).Into(&out)
		if err != nil {
			t.Fatalf("self subject review: %v", err)
		}
		return out.Status.UserInfo.Username
	}
	const want = "system:serviceaccount:platform-system:replicaset-controller"
	if got := whoami(); got != want {
		t.Errorf("the loop's client is %q, want %q", got, want)
	}
	first, err := os.ReadFile(cfg.BearerTokenFile)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Config(ctx, "replicaset-controller"); err != nil {
		t.Fatal(err)
	}
	second, err := os.ReadFile(cfg.BearerTokenFile)
	if err != nil {
		t.Fatal(err)
	}
	if string(first) == string(second) {
		t.Errorf("a new token did not replace the old")
	}
	if got := whoami(); got != want {
		t.Errorf("after the refresh the loop's client is %q, want %q", got, want)
	}
}
