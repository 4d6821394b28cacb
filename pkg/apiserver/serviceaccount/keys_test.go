package serviceaccount

import (
	"crypto"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func pemOf(typ string, der []byte) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der})
}

func TestParseKeys(t *testing.T) {
	rk, ek := rsaKey(t), ecKey(t, elliptic.P384())
	pkix := func(k crypto.PublicKey) []byte {
		der, err := x509.MarshalPKIXPublicKey(k)
		if err != nil {
			t.Fatal(err)
		}
		return der
	}
	pkcs8 := func(k any) []byte {
		der, err := x509.MarshalPKCS8PrivateKey(k)
		if err != nil {
			t.Fatal(err)
		}
		return der
	}
	ecDER, _ := x509.MarshalECPrivateKey(ek)
	_, edKey, _ := ed25519.GenerateKey(rand.Reader)
	cases := []struct {
		name       string
		data       []byte
		publics    int
		private    bool // ParsePrivateKeyPEM succeeds
		publicFail bool
	}{
		{name: "PKIX RSA public", data: pemOf("PUBLIC KEY", pkix(rk.Public())), publics: 1},
		{name: "PKCS1 RSA public", data: pemOf("RSA PUBLIC KEY", x509.MarshalPKCS1PublicKey(&rk.PublicKey)), publics: 1},
		{name: "PKCS1 RSA private", data: pemOf("RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(rk)), publics: 1, private: true},
		{name: "SEC1 EC private", data: pemOf("EC PRIVATE KEY", ecDER), publics: 1, private: true},
		{name: "PKCS8 EC private", data: pemOf("PRIVATE KEY", pkcs8(ek)), publics: 1, private: true},
		{name: "several", data: append(pemOf("PUBLIC KEY", pkix(rk.Public())), pemOf("PUBLIC KEY", pkix(ek.Public()))...), publics: 2},
		{name: "ed25519 refused", data: pemOf("PRIVATE KEY", pkcs8(edKey)), publicFail: true},
		{name: "garbage block", data: pemOf("PUBLIC KEY", []byte("nope")), publicFail: true},
		{name: "no PEM", data: []byte("hello"), publicFail: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			keys, err := ParsePublicKeysPEM(c.data)
			if c.publicFail != (err != nil) || len(keys) != c.publics {
				t.Errorf("public: %d keys, err %v", len(keys), err)
			}
			_, err = ParsePrivateKeyPEM(c.data)
			if c.private != (err == nil) {
				t.Errorf("private: err %v", err)
			}
		})
	}
}

func TestReadFiles(t *testing.T) {
	dir := t.TempDir()
	rk := rsaKey(t)
	path := filepath.Join(dir, "sa.key")
	if err := os.WriteFile(path, pemOf("RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(rk)), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadPrivateKeyFile(path); err != nil {
		t.Fatal(err)
	}
	if keys, err := ReadPublicKeysFile(path); err != nil || len(keys) != 1 {
		t.Fatalf("%d keys, %v", len(keys), err)
	}
	if _, err := ReadPublicKeysFile(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
}

func TestKeyID(t *testing.T) {
	k := rsaKey(t)
	a, err := KeyID(k.Public())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := KeyID(&k.PublicKey)
	c, _ := KeyID(rsaKey(t).Public())
	if a != b || a == c || len(a) != 43 {
		t.Fatalf("key ids %q %q %q", a, b, c)
	}
}
