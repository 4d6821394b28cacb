package serviceaccount

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"testing"
)

// FuzzParseKeys reads arbitrary PEM files as the --service-account-key-file
// and signing key flags do: that must never panic; every key read is RSA or
// ECDSA; and a private key's public half, written as a PUBLIC KEY block,
// reads back as the same key.
func FuzzParseKeys(f *testing.F) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		f.Fatal(err)
	}
	der, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		f.Fatal(err)
	}
	pub, err := x509.MarshalPKIXPublicKey(key.Public())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der}))
	f.Add(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub}))
	f.Add([]byte("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n"))
	f.Add([]byte("not pem"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if keys, err := ParsePublicKeysPEM(data); err == nil {
			for _, k := range keys {
				requireSupported(t, k)
			}
		}
		priv, err := ParsePrivateKeyPEM(data)
		if err != nil {
			return
		}
		requireSupported(t, priv.Public())
		der, err := x509.MarshalPKIXPublicKey(priv.Public())
		if err != nil {
			t.Fatalf("public half of a parsed key does not marshal: %v", err)
		}
		keys, err := ParsePublicKeysPEM(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
		if err != nil || len(keys) != 1 {
			t.Fatalf("public half does not read back: %v", err)
		}
		if eq, ok := keys[0].(interface{ Equal(crypto.PublicKey) bool }); !ok || !eq.Equal(priv.Public()) {
			t.Fatalf("public half reads back as another key")
		}
	})
}

func requireSupported(t *testing.T, k crypto.PublicKey) {
	t.Helper()
	if !supportedKey(k) {
		t.Fatalf("%T read as a key", k)
	}
}

func supportedKey(k crypto.PublicKey) bool {
	switch k.(type) {
	case *rsa.PublicKey, *ecdsa.PublicKey:
		return true
	}
	return false
}
