package leaderelection

import (
	"crypto/rand"
	"fmt"
	"os"
)

// NewIdentity returns a candidate identity unique to this process:
// the hostname, "_", and a random (version 4) UUID.
func NewIdentity() (string, error) {
	host, err := os.Hostname()
	if err != nil {
		return "", fmt.Errorf("leaderelection: reading the hostname: %w", err)
	}
	return host + "_" + newUUID(), nil
}

// newUUID returns a random UUID in its 8-4-4-4-12 hex form.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // never fails; see crypto/rand.Read
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
