// Package rootcacertpublisher is the root-ca-cert-publisher loop: every
// active namespace has a ConfigMap platform-root-ca.crt whose key ca.crt
// holds the CA bundle clients in that namespace verify the API server
// with; it is created when the namespace appears and put back whenever it
// is deleted or changed.
package rootcacertpublisher
