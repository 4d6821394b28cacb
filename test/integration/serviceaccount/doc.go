// Package serviceaccount tests service-account tokens against a real API
// server: the TokenRequest subresource issues them, TokenReview and the
// authenticator verify them with the live checks, the issuer discovery
// documents publish the keys, and the stock kubectl asks for them.
package serviceaccount
