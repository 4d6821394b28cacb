package serviceaccount

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/google/go-cmp/cmp"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/component/authn"
)

var t0 = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

// memObjects is an in-memory Objects for the pure verification logic; the
// integration tests run the same checks against the API server's stores.
type memObjects struct {
	sas     map[string]*corev1.ServiceAccount
	pods    map[string]*corev1.Pod
	secrets map[string]*corev1.Secret
}

func lookup[T any](m map[string]*T, resource, ns, name string) (*T, error) {
	if o, ok := m[ns+"/"+name]; ok {
		return o, nil
	}
	return nil, apierrors.NewNotFound(meta.GroupResource{Resource: resource}, name)
}

func (m memObjects) ServiceAccount(_ context.Context, ns, name string) (*corev1.ServiceAccount, error) {
	return lookup(m.sas, "serviceaccounts", ns, name)
}

func (m memObjects) Pod(_ context.Context, ns, name string) (*corev1.Pod, error) {
	return lookup(m.pods, "pods", ns, name)
}

func (m memObjects) Secret(_ context.Context, ns, name string) (*corev1.Secret, error) {
	return lookup(m.secrets, "secrets", ns, name)
}

func objMeta(ns, name, uid string) meta.ObjectMeta {
	return meta.ObjectMeta{Namespace: ns, Name: name, UID: meta.UID(uid)}
}

func world() memObjects {
	return memObjects{
		sas:     map[string]*corev1.ServiceAccount{"ns/sa": {ObjectMeta: objMeta("ns", "sa", "sa-uid")}},
		pods:    map[string]*corev1.Pod{"ns/pod": {ObjectMeta: objMeta("ns", "pod", "pod-uid")}},
		secrets: map[string]*corev1.Secret{"ns/sec": {ObjectMeta: objMeta("ns", "sec", "sec-uid")}},
	}
}

func rsaKey(t testing.TB) *rsa.PrivateKey {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func ecKey(t testing.TB, c elliptic.Curve) *ecdsa.PrivateKey {
	t.Helper()
	k, err := ecdsa.GenerateKey(c, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func issuerOf(t testing.TB, iss string, key crypto.Signer, now *time.Time) *Issuer {
	t.Helper()
	i, err := NewIssuer(iss, key, func() time.Time { return *now })
	if err != nil {
		t.Fatal(err)
	}
	return i
}

func issue(t testing.TB, i *Issuer, r Request) string {
	t.Helper()
	if r.Namespace == "" {
		r.Namespace, r.ServiceAccount = "ns", Ref{Name: "sa", UID: "sa-uid"}
	}
	if r.Lifetime == 0 {
		r.Lifetime = time.Hour
	}
	tok, _, err := i.Issue(r)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// unsignedToken is a token with alg "none", built by hand because no
// library will make one.
func unsignedToken(t *testing.T, signed string) string {
	t.Helper()
	header := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none"}`))
	return header + "." + strings.Split(signed, ".")[1] + "."
}

// tamper rewrites a signed token's payload, keeping its signature.
func tamper(t *testing.T, signed string, change func(map[string]any)) string {
	t.Helper()
	parts := strings.Split(signed, ".")
	raw, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	var claims map[string]any
	if err := json.Unmarshal(raw, &claims); err != nil {
		t.Fatal(err)
	}
	change(claims)
	raw, _ = json.Marshal(claims)
	parts[1] = base64.RawURLEncoding.EncodeToString(raw)
	return strings.Join(parts, ".")
}

func hmacToken(t *testing.T, pub crypto.PublicKey, claims any) string {
	t.Helper()
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.HS256, Key: der}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := jwt.Signed(signer).Claims(claims).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

const (
	iss1 = "https://issuer.example"
	iss2 = "https://old-issuer.example"
)

func saUser(extra map[string][]string) *authn.User {
	return &authn.User{Name: "system:serviceaccount:ns:sa", UID: "sa-uid", Groups: []string{"system:serviceaccounts", "system:serviceaccounts:ns"}, Extra: extra}
}

func TestAuthenticate(t *testing.T) {
	key, key2, other := rsaKey(t), ecKey(t, elliptic.P384()), rsaKey(t)
	now := t0
	main := issuerOf(t, iss1, key, &now)
	second := issuerOf(t, iss2, key2, &now)
	foreign := issuerOf(t, iss1, other, &now)
	stranger := issuerOf(t, "https://someone.else", key, &now)
	valid := issue(t, main, Request{Audiences: []string{iss1}})
	podRef, secRef := &Ref{Name: "pod", UID: "pod-uid"}, &Ref{Name: "sec", UID: "sec-uid"}

	cases := []struct {
		name      string
		token     string
		at        time.Duration // clock offset when verifying
		audiences []string      // requested; nil means the API server's
		objects   func(memObjects)
		want      *authn.User // nil: not authenticated
		wantErr   error       // nil with want nil: not ours
		anyErr    bool        // an error whose kind is not asserted
	}{
		{name: "valid", token: valid, want: saUser(nil)},
		{name: "no audience means the API server", token: issue(t, main, Request{}), want: saUser(nil)},
		{name: "second issuer and second key accepted", token: issue(t, second, Request{Audiences: []string{iss1}}), want: saUser(nil)},
		{name: "pod bound", token: issue(t, main, Request{Pod: podRef}), want: saUser(map[string][]string{PodNameKey: {"pod"}, PodUIDKey: {"pod-uid"}})},
		{name: "secret bound", token: issue(t, main, Request{Secret: secRef}), want: saUser(nil)},
		{name: "wrong key", token: issue(t, foreign, Request{}), wantErr: ErrSignature},
		{name: "unknown issuer is not ours", token: issue(t, stranger, Request{})},
		{name: "alg none is not ours", token: unsignedToken(t, valid)},
		{name: "HS256 with the public key as secret", token: hmacToken(t, key.Public(), map[string]any{"iss": iss1, "sub": "system:serviceaccount:ns:sa", "exp": t0.Add(time.Hour).Unix(), "platform.io": map[string]any{"namespace": "ns", "serviceaccount": map[string]string{"name": "sa", "uid": "sa-uid"}}})},
		{name: "not a JWT", token: "abc.def"},
		{name: "tampered subject", token: tamper(t, valid, func(c map[string]any) { c["sub"] = "system:serviceaccount:ns:admin" }), wantErr: ErrSignature},
		{name: "tampered expiry", token: tamper(t, valid, func(c map[string]any) { c["exp"] = t0.Add(1000 * time.Hour).Unix() }), wantErr: ErrSignature},
		{name: "expired", token: valid, at: time.Hour + Leeway + time.Second, wantErr: ErrExpired},
		{name: "expired within the leeway", token: valid, at: time.Hour + Leeway - time.Second, want: saUser(nil)},
		{name: "not yet valid", token: valid, at: -Leeway - time.Second, wantErr: ErrNotYet},
		{name: "wrong audience", token: issue(t, main, Request{Audiences: []string{"vault"}}), wantErr: ErrAudience},
		{name: "review for its audience", token: issue(t, main, Request{Audiences: []string{"vault"}}), audiences: []string{"vault"}, want: saUser(nil)},
		{name: "review for another audience", token: valid, audiences: []string{"vault"}, wantErr: ErrAudience},
		{name: "deleted service account", token: valid, objects: func(m memObjects) { delete(m.sas, "ns/sa") }, anyErr: true},
		{name: "service account recreated", token: valid, objects: func(m memObjects) { m.sas["ns/sa"].UID = "new" }, wantErr: ErrUIDChange},
		{name: "service account deleted long ago", token: valid, objects: func(m memObjects) {
			m.sas["ns/sa"].DeletionTimestamp = &meta.Time{Time: t0.Add(-2 * Leeway)}
		}, wantErr: ErrDeleted},
		{name: "service account deleted within the leeway", token: valid, objects: func(m memObjects) {
			m.sas["ns/sa"].DeletionTimestamp = &meta.Time{Time: t0.Add(-Leeway / 2)}
		}, want: saUser(nil)},
		{name: "deleted bound pod", token: issue(t, main, Request{Pod: podRef}), objects: func(m memObjects) { delete(m.pods, "ns/pod") }, anyErr: true},
		{name: "bound pod recreated", token: issue(t, main, Request{Pod: podRef}), objects: func(m memObjects) { m.pods["ns/pod"].UID = "new" }, wantErr: ErrUIDChange},
		{name: "bound pod in its grace period", token: issue(t, main, Request{Pod: podRef}), objects: func(m memObjects) {
			m.pods["ns/pod"].DeletionTimestamp = &meta.Time{Time: t0.Add(30 * time.Second)}
		}, want: saUser(map[string][]string{PodNameKey: {"pod"}, PodUIDKey: {"pod-uid"}})},
		{name: "bound pod past its grace", token: issue(t, main, Request{Pod: podRef}), objects: func(m memObjects) {
			m.pods["ns/pod"].DeletionTimestamp = &meta.Time{Time: t0.Add(-2 * Leeway)}
		}, wantErr: ErrDeleted},
		{name: "deleted bound secret", token: issue(t, main, Request{Secret: secRef}), objects: func(m memObjects) { delete(m.secrets, "ns/sec") }, anyErr: true},
		{name: "bound secret recreated", token: issue(t, main, Request{Secret: secRef}), objects: func(m memObjects) { m.secrets["ns/sec"].UID = "new" }, wantErr: ErrUIDChange},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			objs := world()
			if c.objects != nil {
				c.objects(objs)
			}
			at := t0.Add(c.at)
			a, err := NewAuthenticator(VerifyConfig{
				Issuers: []string{iss1, iss2}, Keys: []crypto.PublicKey{key.Public(), key2.Public()},
				APIAudiences: []string{iss1}, Objects: objs, Now: func() time.Time { return at },
			})
			if err != nil {
				t.Fatal(err)
			}
			u, _, ok, err := a.AuthenticateTokenFor(context.Background(), c.token, c.audiences)
			switch {
			case c.want != nil:
				if err != nil || !ok {
					t.Fatalf("ok=%v err=%v, want authenticated", ok, err)
				}
				if jti := u.Extra[CredentialIDKey]; len(jti) != 1 || !strings.HasPrefix(jti[0], "JTI=") {
					t.Errorf("credential id = %v", jti)
				}
				delete(u.Extra, CredentialIDKey)
				if len(u.Extra) == 0 {
					u.Extra = nil
				}
				if diff := cmp.Diff(c.want, u); diff != "" {
					t.Errorf("user (-want +got):\n%s", diff)
				}
			case c.wantErr == nil && !c.anyErr:
				if ok || err != nil || u != nil {
					t.Fatalf("ok=%v err=%v user=%v, want not ours", ok, err, u)
				}
			default:
				if ok || u != nil || err == nil {
					t.Fatalf("ok=%v err=%v user=%v, want an error", ok, err, u)
				}
				if c.wantErr != nil && !errors.Is(err, c.wantErr) {
					t.Fatalf("err = %v, want %v", err, c.wantErr)
				}
			}
		})
	}
}

func TestTokenClaims(t *testing.T) {
	key := ecKey(t, elliptic.P256())
	now := t0
	i := issuerOf(t, iss1, key, &now)
	tok, exp, err := i.Issue(Request{Namespace: "ns", ServiceAccount: Ref{Name: "sa", UID: "sa-uid"}, Pod: &Ref{Name: "pod", UID: "pod-uid"}, Audiences: []string{"a", "b"}, Lifetime: 10 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if !exp.Equal(t0.Add(10 * time.Minute)) {
		t.Errorf("expiry %v", exp)
	}
	parsed, err := jwt.ParseSigned(tok, []jose.SignatureAlgorithm{jose.ES256})
	if err != nil {
		t.Fatal(err)
	}
	kid, _ := KeyID(key.Public())
	if h := parsed.Headers[0]; h.KeyID != kid || h.Algorithm != "ES256" {
		t.Errorf("header kid=%q alg=%q, want %q ES256", h.KeyID, h.Algorithm, kid)
	}
	var claims map[string]any
	if err := parsed.Claims(key.Public(), &claims); err != nil {
		t.Fatal(err)
	}
	jti, _ := claims["jti"].(string)
	if jti == "" {
		t.Errorf("no jti in %v", claims)
	}
	delete(claims, "jti")
	want := map[string]any{
		"iss": iss1, "sub": "system:serviceaccount:ns:sa", "aud": []any{"a", "b"},
		"iat": float64(t0.Unix()), "nbf": float64(t0.Unix()), "exp": float64(t0.Add(10 * time.Minute).Unix()),
		"platform.io": map[string]any{
			"namespace":      "ns",
			"serviceaccount": map[string]any{"name": "sa", "uid": "sa-uid"},
			"pod":            map[string]any{"name": "pod", "uid": "pod-uid"},
		},
	}
	if diff := cmp.Diff(want, claims); diff != "" {
		t.Errorf("claims (-want +got):\n%s", diff)
	}
}

func TestAlgorithms(t *testing.T) {
	cases := []struct {
		key  crypto.Signer
		want jose.SignatureAlgorithm
	}{
		{rsaKey(t), jose.RS256},
		{ecKey(t, elliptic.P256()), jose.ES256},
		{ecKey(t, elliptic.P384()), jose.ES384},
		{ecKey(t, elliptic.P521()), jose.ES512},
	}
	for _, c := range cases {
		t.Run(string(c.want), func(t *testing.T) {
			now := t0
			tok := issue(t, issuerOf(t, iss1, c.key, &now), Request{})
			parsed, err := jwt.ParseSigned(tok, Algorithms)
			if err != nil {
				t.Fatal(err)
			}
			if got := parsed.Headers[0].Algorithm; got != string(c.want) {
				t.Errorf("alg = %s, want %s", got, c.want)
			}
		})
	}
}

func TestSplitUsername(t *testing.T) {
	cases := []struct {
		in       string
		ns, name string
		ok       bool
	}{
		{"system:serviceaccount:ns:sa", "ns", "sa", true},
		{"system:serviceaccount:ns", "", "", false},
		{"system:serviceaccount::sa", "", "", false},
		{"system:serviceaccount:ns:a:b", "", "", false},
		{"alice", "", "", false},
	}
	for _, c := range cases {
		ns, name, ok := SplitUsername(c.in)
		if ns != c.ns || name != c.name || ok != c.ok {
			t.Errorf("SplitUsername(%q) = %q %q %v", c.in, ns, name, ok)
		}
	}
}
