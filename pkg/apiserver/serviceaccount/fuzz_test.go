package serviceaccount

import (
	"context"
	"crypto"
	"testing"
	"time"
)

// FuzzAuthenticate feeds arbitrary bearer tokens to the verifier: it must
// never panic, and whatever it accepts can only be the identity the one
// signed seed names (the fuzzer does not hold the signing key, so at most
// it re-encodes that token).
func FuzzAuthenticate(f *testing.F) {
	key := rsaKey(f)
	now := t0
	valid := issue(f, issuerOf(f, iss1, key, &now), Request{Pod: &Ref{Name: "pod", UID: "pod-uid"}})
	f.Add(valid)
	f.Add("")
	f.Add("a.b.c")
	f.Add("eyJhbGciOiJub25lIn0.e30.")
	a, err := NewAuthenticator(VerifyConfig{
		Issuers: []string{iss1}, Keys: []crypto.PublicKey{key.Public()}, APIAudiences: []string{iss1},
		Objects: world(), Now: func() time.Time { return t0 },
	})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, token string) {
		u, _, ok, err := a.AuthenticateTokenFor(context.Background(), token, nil)
		if !ok {
			return
		}
		if err != nil || u == nil || u.Name != "system:serviceaccount:ns:sa" || u.UID != "sa-uid" || u.Extra[PodUIDKey][0] != "pod-uid" {
			t.Fatalf("accepted %q as %+v (err %v)", token, u, err)
		}
	})
}
