package serviceaccount

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"os"

	jose "github.com/go-jose/go-jose/v4"
)

// ErrNoKeys is returned for a key file holding no usable key.
var ErrNoKeys = errors.New("serviceaccount: no RSA or ECDSA key found")

// ReadPublicKeysFile returns the public keys of a PEM file: public keys
// (PKIX or PKCS#1), certificates, and private keys (PKCS#1, SEC 1 or
// PKCS#8), whose public halves are kept. Only RSA and ECDSA keys count.
func ReadPublicKeysFile(path string) ([]crypto.PublicKey, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("serviceaccount: read keys: %w", err)
	}
	keys, err := ParsePublicKeysPEM(data)
	if err != nil {
		return nil, fmt.Errorf("serviceaccount: %s: %w", path, err)
	}
	return keys, nil
}

// ParsePublicKeysPEM is ReadPublicKeysFile on bytes.
func ParsePublicKeysPEM(data []byte) ([]crypto.PublicKey, error) {
	var keys []crypto.PublicKey
	for block, rest := pem.Decode(data); block != nil; block, rest = pem.Decode(rest) {
		key, err := publicKeyOfBlock(block)
		if err != nil {
			return nil, err
		}
		if key != nil {
			keys = append(keys, key)
		}
	}
	if len(keys) == 0 {
		return nil, ErrNoKeys
	}
	return keys, nil
}

// publicKeyOfBlock returns the RSA or ECDSA public key in block, nil for a
// block of another type, and an error for a key block that does not parse.
func publicKeyOfBlock(b *pem.Block) (crypto.PublicKey, error) {
	var key any
	var err error
	switch b.Type {
	case "PUBLIC KEY":
		key, err = x509.ParsePKIXPublicKey(b.Bytes)
	case "RSA PUBLIC KEY":
		key, err = x509.ParsePKCS1PublicKey(b.Bytes)
	case "CERTIFICATE":
		var cert *x509.Certificate
		if cert, err = x509.ParseCertificate(b.Bytes); err == nil {
			key = cert.PublicKey
		}
	case "RSA PRIVATE KEY", "EC PRIVATE KEY", "PRIVATE KEY":
		var priv crypto.Signer
		if priv, err = parsePrivateBlock(b); err == nil {
			key = priv.Public()
		}
	default:
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("parse %s block: %w", b.Type, err)
	}
	switch key.(type) {
	case *rsa.PublicKey, *ecdsa.PublicKey:
		return key, nil
	}
	return nil, fmt.Errorf("%s block: %T is not an RSA or ECDSA key", b.Type, key)
}

// ReadPrivateKeyFile returns the first RSA or ECDSA private key of a PEM file.
func ReadPrivateKeyFile(path string) (crypto.Signer, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("serviceaccount: read signing key: %w", err)
	}
	key, err := ParsePrivateKeyPEM(data)
	if err != nil {
		return nil, fmt.Errorf("serviceaccount: %s: %w", path, err)
	}
	return key, nil
}

// ParsePrivateKeyPEM is ReadPrivateKeyFile on bytes.
func ParsePrivateKeyPEM(data []byte) (crypto.Signer, error) {
	for block, rest := pem.Decode(data); block != nil; block, rest = pem.Decode(rest) {
		switch block.Type {
		case "RSA PRIVATE KEY", "EC PRIVATE KEY", "PRIVATE KEY":
			return parsePrivateBlock(block)
		}
	}
	return nil, ErrNoKeys
}

func parsePrivateBlock(b *pem.Block) (crypto.Signer, error) {
	var key any
	var err error
	switch b.Type {
	case "RSA PRIVATE KEY":
		key, err = x509.ParsePKCS1PrivateKey(b.Bytes)
	case "EC PRIVATE KEY":
		key, err = x509.ParseECPrivateKey(b.Bytes)
	default:
		key, err = x509.ParsePKCS8PrivateKey(b.Bytes)
	}
	if err != nil {
		return nil, err
	}
	switch k := key.(type) {
	case *rsa.PrivateKey:
		return k, nil
	case *ecdsa.PrivateKey:
		return k, nil
	}
	return nil, fmt.Errorf("%T is not an RSA or ECDSA private key", key)
}

// KeyID is the "kid" of a public key, as upstream computes it: the
// unpadded base64url SHA-256 of the key's DER PKIX encoding. Verifiers
// can then pick the key without trying each.
func KeyID(pub crypto.PublicKey) (string, error) {
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return "", fmt.Errorf("serviceaccount: key id: %w", err)
	}
	sum := sha256.Sum256(der)
	return base64.RawURLEncoding.EncodeToString(sum[:]), nil
}

// Algorithm is the JWS algorithm a key signs with: RS256 for RSA, and
// ES256, ES384 or ES512 for ECDSA on P-256, P-384 or P-521.
func Algorithm(pub crypto.PublicKey) (jose.SignatureAlgorithm, error) {
	switch k := pub.(type) {
	case *rsa.PublicKey:
		return jose.RS256, nil
	case *ecdsa.PublicKey:
		switch k.Curve {
		case elliptic.P256():
			return jose.ES256, nil
		case elliptic.P384():
			return jose.ES384, nil
		case elliptic.P521():
			return jose.ES512, nil
		}
		return "", fmt.Errorf("serviceaccount: ECDSA curve %s is not supported", k.Curve.Params().Name)
	}
	return "", fmt.Errorf("serviceaccount: %T is not an RSA or ECDSA key", pub)
}
