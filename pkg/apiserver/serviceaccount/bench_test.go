package serviceaccount

import (
	"context"
	"crypto"
	"crypto/elliptic"
	"sync"
	"testing"
	"time"
)

// TestConcurrent issues and verifies from several goroutines at once, as
// the server does; run with -race.
func TestConcurrent(t *testing.T) {
	key := ecKey(t, elliptic.P256())
	now := t0
	i := issuerOf(t, iss1, key, &now)
	a, err := NewAuthenticator(VerifyConfig{Issuers: []string{iss1}, Keys: []crypto.PublicKey{key.Public()}, APIAudiences: []string{iss1}, Objects: world(), Now: func() time.Time { return t0 }})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() {
			for range 20 {
				tok, _, err := i.Issue(Request{Namespace: "ns", ServiceAccount: Ref{Name: "sa", UID: "sa-uid"}, Lifetime: time.Hour})
				if err == nil {
					_, ok, verr := a.AuthenticateToken(context.Background(), tok)
					if !ok {
						err = verr
					}
				}
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// BenchmarkAuthenticate measures one verification (signature, claims and
// the live lookups against in-memory objects) per key type.
func BenchmarkAuthenticate(b *testing.B) {
	for _, c := range []struct {
		name string
		key  crypto.Signer
	}{{"RS256-2048", rsaKey(b)}, {"ES256", ecKey(b, elliptic.P256())}} {
		b.Run(c.name, func(b *testing.B) {
			now := t0
			tok := issue(b, issuerOf(b, iss1, c.key, &now), Request{Pod: &Ref{Name: "pod", UID: "pod-uid"}})
			a, err := NewAuthenticator(VerifyConfig{Issuers: []string{iss1}, Keys: []crypto.PublicKey{c.key.Public()}, APIAudiences: []string{iss1}, Objects: world(), Now: func() time.Time { return t0 }})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, ok, err := a.AuthenticateToken(context.Background(), tok); !ok {
					b.Fatal(err)
				}
			}
		})
	}
}
