// Package serviceaccount issues and verifies service-account tokens: JWTs
// signed with the API server's key, naming a service account (and
// optionally the pod or secret they are bound to), accepted only while
// those objects still exist with the same uid. It also builds the OpenID
// issuer discovery documents. Tokens are signed and parsed with go-jose;
// nothing here reads a JWT by hand.
package serviceaccount
