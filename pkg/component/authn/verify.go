package authn

import (
	"crypto/sha256"
	"crypto/x509"
	"encoding/binary"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// verifiedCacheSize bounds the chains a verifier remembers: far more than
// the distinct client certificates of a cluster's daemons and nodes, small
// enough (about 50 bytes an entry) to keep whatever the clients send.
const verifiedCacheSize = 4096

// verifier checks client certificate chains against fixed roots for client
// authentication. A chain that verified is remembered, by the SHA-256 of
// the certificates the client sent, until the earliest expiry in the chain
// it verified to, so a client sending the same certificate on every request
// pays for the signature checks once instead of on every request (they
// were the largest cost of a request authenticated by certificate). Chains
// that fail are checked again each time.
type verifier struct {
	roots *x509.CertPool
	now   func() time.Time
	size  int

	mu    sync.Mutex
	until map[[sha256.Size]byte]time.Time
	// checks counts full verifications, for tests.
	checks atomic.Int64
}

func newVerifier(roots *x509.CertPool) *verifier {
	return &verifier{roots: roots, now: time.Now, size: verifiedCacheSize, until: map[[sha256.Size]byte]time.Time{}}
}

// verifiedLeaf returns the client's certificate once it verifies against
// the roots for client authentication, nil and no error when the client
// sent none. The further certificates the client sent serve as
// intermediates.
func (v *verifier) verifiedLeaf(r *http.Request) (*x509.Certificate, error) {
	if r.TLS == nil || len(r.TLS.PeerCertificates) == 0 {
		return nil, nil
	}
	chain := r.TLS.PeerCertificates
	key := chainKey(chain)
	now := v.now()
	v.mu.Lock()
	until, ok := v.until[key]
	v.mu.Unlock()
	if ok && now.Before(until) {
		return chain[0], nil
	}
	v.checks.Add(1)
	opts := x509.VerifyOptions{
		Roots:         v.roots,
		Intermediates: x509.NewCertPool(),
		KeyUsages:     []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
		CurrentTime:   now,
	}
	for _, c := range chain[1:] {
		opts.Intermediates.AddCert(c)
	}
	verified, err := chain[0].Verify(opts)
	if err != nil {
		return nil, fmt.Errorf("verifying certificate %q (serial %s) failed: %w",
			chain[0].Subject.CommonName, chain[0].SerialNumber, err)
	}
	v.remember(key, now, expiry(verified[0]))
	return chain[0], nil
}

// remember keeps key until until. A full cache first drops what expired,
// then, if still full, everything: a client sending many distinct chains
// only brings back the cost of verifying.
func (v *verifier) remember(key [sha256.Size]byte, now, until time.Time) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if len(v.until) >= v.size {
		for k, u := range v.until {
			if !now.Before(u) {
				delete(v.until, k)
			}
		}
		if len(v.until) >= v.size {
			clear(v.until)
		}
	}
	v.until[key] = until
}

// chainKey is the SHA-256 of the certificates, each preceded by its length.
func chainKey(chain []*x509.Certificate) [sha256.Size]byte {
	h := sha256.New()
	var n [8]byte
	for _, c := range chain {
		binary.BigEndian.PutUint64(n[:], uint64(len(c.Raw)))
		h.Write(n[:])
		h.Write(c.Raw)
	}
	var key [sha256.Size]byte
	h.Sum(key[:0])
	return key
}

// expiry is when the first certificate of chain expires.
func expiry(chain []*x509.Certificate) time.Time {
	until := chain[0].NotAfter
	for _, c := range chain[1:] {
		if c.NotAfter.Before(until) {
			until = c.NotAfter
		}
	}
	return until
}
