package authn

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/zap"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/component/authn"
)

func TestBootstrap(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	secret := func(edit func(s *corev1.Secret)) *corev1.Secret {
		s := &corev1.Secret{
			ObjectMeta: meta.ObjectMeta{Name: "bootstrap-token-abcdef", Namespace: "platform-system"},
			Type:       BootstrapSecretType,
			Data: map[string][]byte{
				"token-id": []byte("abcdef"), "token-secret": []byte("0123456789abcdef"),
				"usage-bootstrap-authentication": []byte("true"),
				"expiration":                     []byte(now.Add(time.Hour).Format(time.RFC3339)),
			},
		}
		if edit != nil {
			edit(s)
		}
		return s
	}
	const good = "abcdef.0123456789abcdef"
	user := func(groups ...string) *authn.User {
		return &authn.User{Name: "system:bootstrap:abcdef", Groups: append([]string{"system:bootstrappers"}, groups...)}
	}
	tests := []struct {
		name    string
		secret  *corev1.Secret
		getErr  error
		token   string
		want    *authn.User
		wantErr bool
	}{
		{name: "valid", secret: secret(nil), token: good, want: user()},
		{name: "no expiration", secret: secret(func(s *corev1.Secret) { delete(s.Data, "expiration") }), token: good, want: user()},
		{name: "extra groups", token: good, want: user("system:bootstrappers:nodes", "system:bootstrappers:x:y"),
			secret: secret(func(s *corev1.Secret) {
				s.Data["auth-extra-groups"] = []byte("system:bootstrappers:nodes, system:bootstrappers:x:y,system:bootstrappers:nodes")
			})},
		{name: "extra group outside system:bootstrappers", token: good,
			secret: secret(func(s *corev1.Secret) { s.Data["auth-extra-groups"] = []byte("system:masters") })},
		{name: "expired", token: good,
			secret: secret(func(s *corev1.Secret) { s.Data["expiration"] = []byte(now.Format(time.RFC3339)) })},
		{name: "unreadable expiration", token: good,
			secret: secret(func(s *corev1.Secret) { s.Data["expiration"] = []byte("tomorrow") })},
		{name: "usage false", token: good,
			secret: secret(func(s *corev1.Secret) { s.Data["usage-bootstrap-authentication"] = []byte("false") })},
		{name: "usage missing", token: good,
			secret: secret(func(s *corev1.Secret) { delete(s.Data, "usage-bootstrap-authentication") })},
		{name: "wrong secret", secret: secret(nil), token: "abcdef.0123456789abcdee"},
		{name: "wrong type", token: good, secret: secret(func(s *corev1.Secret) { s.Type = corev1.SecretTypeOpaque })},
		{name: "token-id differs", token: good, secret: secret(func(s *corev1.Secret) { s.Data["token-id"] = []byte("zzzzzz") })},
		{name: "being deleted", token: good, secret: secret(func(s *corev1.Secret) { s.DeletionTimestamp = &meta.Time{Time: now} })},
		{name: "bad format: upper case", secret: secret(nil), token: "ABCDEF.0123456789abcdef"},
		{name: "bad format: short secret", secret: secret(nil), token: "abcdef.0123456789"},
		{name: "bad format: not a bootstrap token", secret: secret(nil), token: "some-other-token"},
		{name: "no secret", token: good},
		{name: "store error", token: good, getErr: errors.New("etcd down"), wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var asked string
			get := func(_ context.Context, ns, name string) (*corev1.Secret, error) {
				asked = ns + "/" + name
				if tc.getErr != nil {
					return nil, tc.getErr
				}
				if tc.secret == nil {
					return nil, apierrors.NewNotFound(meta.GroupResource{Resource: "secrets"}, name)
				}
				return tc.secret, nil
			}
			b := NewBootstrap(zap.NewNop(), get, func() time.Time { return now })
			u, ok, err := b.AuthenticateToken(context.Background(), tc.token)
			if (err != nil) != tc.wantErr {
				t.Fatalf("error %v, want error %v", err, tc.wantErr)
			}
			if ok != (tc.want != nil) {
				t.Fatalf("ok=%v user %+v, want %+v", ok, u, tc.want)
			}
			if d := cmp.Diff(tc.want, u); d != "" {
				t.Errorf("user (-want +got):\n%s", d)
			}
			if tc.secret != nil && tc.token == good && asked != "platform-system/bootstrap-token-abcdef" {
				t.Errorf("read secret %q", asked)
			}
		})
	}
}
